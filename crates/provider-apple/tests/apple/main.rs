//! The Apple adapter against the simulated Apple over real HTTP.

mod client_secret;
mod failures;
mod id_token_faults;
mod sign_in;
mod support;
