//! The Apple adapter against the simulated Apple over real HTTP: what Apple does its own
//! way. The scenarios it shares with the other providers run in the conformance kit.

mod client_secret;
mod failures;
mod native;
mod revocation;
mod sign_in;
mod support;
