//! The Microsoft adapter against the simulated Microsoft (`common`) over real HTTP.

mod failures;
mod id_token_faults;
mod sign_in;
mod support;
mod tenants;
