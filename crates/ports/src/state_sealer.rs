//! The state sealer port: a state value that carries its own state, tamper-proof and secret.

use crate::CipherError;
use social_login_domain::link_offer::LinkOffer;
use social_login_domain::{OAuthState, StateToken};

/// Turns an issued [`OAuthState`] into the opaque value the browser carries, and back.
///
/// The sealed value must be authenticated (nobody without the key can make or alter one)
/// and confidential (the PKCE verifier inside must not leak through the browser's history or
/// the provider's logs). Every instance that shares the root secret opens what any of them
/// sealed.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait StateSealer: Send + Sync {
    fn seal(&self, state: &OAuthState) -> Result<StateToken, CipherError>;

    /// The state sealed in `token`, or `None` for anything this service did not seal
    /// (tampered, truncated, made under an unknown key). Expiry is the domain's to judge.
    fn open(&self, token: &StateToken) -> Option<OAuthState>;

    /// The link token of `offer` (docs/api.md#finishing-a-link): sealed like a state value,
    /// never opened as one.
    fn seal_link(&self, offer: &LinkOffer) -> Result<String, CipherError>;

    /// The offer sealed in `token`, or `None` for anything this service did not seal as a
    /// link token. Expiry and whose it is are the domain's to judge.
    fn open_link(&self, token: &str) -> Option<LinkOffer>;
}
