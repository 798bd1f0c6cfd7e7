//! OpenID Connect provider adapters: providers whose identity comes from a signed id_token.
//!
//! The id_token checks live in `social-login-id-token` (shared with Apple).
//! [`GoogleProvider`], [`MicrosoftProvider`] (the `common` endpoint, issuer checked against
//! the token's tenant) and [`LinkedinProvider`] sit on it through [`oidc_flow`].
//! [`discovery`] reads the discovery document of a provider from configuration.

pub mod discovery;
pub mod google;
pub mod linkedin;
pub mod microsoft;
#[cfg(test)]
mod native_tests;
mod oidc_flow;

pub use google::GoogleProvider;
pub use linkedin::LinkedinProvider;
pub use microsoft::MicrosoftProvider;
