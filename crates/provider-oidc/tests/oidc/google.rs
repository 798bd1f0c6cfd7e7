//! Google's own behaviour: userinfo beside the id_token, string booleans, both spellings of
//! its issuer, one key set for every adapter instance.

mod revocation;
mod sign_in;
mod support;
