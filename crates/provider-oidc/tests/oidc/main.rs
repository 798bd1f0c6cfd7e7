//! The OIDC verifier and the Google adapter against the simulated Google over real HTTP.

mod google_failures;
mod google_id_token_faults;
mod google_sign_in;
mod id_token_properties;
mod key_set_cache;
mod key_set_outage;
mod support;
mod verifier;
