//! OpenID Connect provider adapters: providers whose identity comes from a signed id_token.
//!
//! [`id_token::IdTokenVerifier`] checks an id_token against the provider's key set
//! ([`jwks::KeySetCache`], shared per JWKS URL in the process), its issuer, our client id,
//! the clock and the state's nonce. [`GoogleProvider`] is the first adapter on top of it;
//! Microsoft, LinkedIn and Apple follow the same shape.

pub mod claims;
pub mod google;
pub mod id_token;
pub mod jwks;

pub use claims::IdTokenClaims;
pub use google::GoogleProvider;
pub use id_token::{IdTokenVerifier, IssuerPolicy};
pub use jwks::KeySetCache;
