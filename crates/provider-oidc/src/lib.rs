//! OpenID Connect provider adapters: providers whose identity comes from a signed id_token.
//!
//! [`id_token::IdTokenVerifier`] checks an id_token against the provider's key set
//! ([`jwks::KeySetCache`], shared per JWKS URL in the process), its issuer, our client id,
//! the clock and the state's nonce. [`GoogleProvider`], [`MicrosoftProvider`] (the `common`
//! endpoint, issuer checked against the token's tenant) and [`LinkedinProvider`] sit on it.

pub mod claims;
pub mod google;
pub mod id_token;
pub mod jwks;
pub mod linkedin;
pub mod microsoft;
mod oidc_flow;

pub use claims::IdTokenClaims;
pub use google::GoogleProvider;
pub use id_token::{IdTokenVerifier, IssuerPolicy, NoncePolicy};
pub use jwks::KeySetCache;
pub use linkedin::LinkedinProvider;
pub use microsoft::MicrosoftProvider;
