//! LinkedIn's own behaviour: no nonce in its id_tokens, types that differ between the
//! id_token and userinfo, and apps that enforce or refuse PKCE.

mod pkce;
mod sign_in;
mod support;
