//! The LinkedIn adapter against the simulated LinkedIn over real HTTP.

mod failures;
mod id_token_faults;
mod pkce;
mod sign_in;
mod support;
