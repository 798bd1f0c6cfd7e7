//! The GitHub adapter against the simulated GitHub over real HTTP.

mod authorization;
mod exchange_failures;
mod identity;
mod support;
mod user_info_failures;
