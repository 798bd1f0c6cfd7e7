//! id_token verification, shared by the OIDC adapters and Apple so that no adapter crate
//! depends on another.
//!
//! [`IdTokenVerifier`] checks an id_token against the provider's key set ([`KeySetCache`],
//! shared per JWKS URL in the process), its issuer ([`IssuerPolicy`]), the client id, the
//! clock and the state's nonce; [`IdTokenClaims`] is what it hands over.

pub mod claims;
pub mod jwks;
pub mod tenant;
pub mod verifier;

pub use claims::IdTokenClaims;
pub use jwks::{KeyMiss, KeySetCache};
pub use verifier::{
    IdTokenVerifier, IssuerPolicy, IssuerRule, NoncePolicy, PresentedClaims, oidc_engine,
};
