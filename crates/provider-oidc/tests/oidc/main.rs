//! The OpenID Connect adapters against their simulated providers over real HTTP: what each
//! provider does its own way. The scenarios they share run in the conformance kit.

mod google;
mod linkedin;
mod microsoft;
