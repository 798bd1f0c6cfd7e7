//! The OAuth 2.0 adapters against their simulated providers over real HTTP: what each
//! provider does its own way. The scenarios they share run in the conformance kit.

mod discord;
mod facebook;
mod github;
mod twitter;
