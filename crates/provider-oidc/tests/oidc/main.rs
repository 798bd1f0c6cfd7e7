//! The Google adapter against the simulated Google over real HTTP.

mod google_failures;
mod google_id_token_faults;
mod google_sign_in;
mod support;
