//! The simulator over real HTTP: the checks each simulated provider makes, as a client
//! sees them; one binary, one module per provider family.

mod apple;
mod github;
mod google;
mod microsoft_linkedin;
mod mint;
mod rest_providers;
mod revocation;
mod support;
