//! The tokens a code exchange yields, and what else its answer said.

use serde_json::{Map, Value};
use social_login_domain::{ProviderTokens, Scopes, SecretText};
use std::time::Duration;

/// What a successful code exchange returned. `Debug` shows no token (they are `SecretText`)
/// and not `members`, which may echo the request (VK ID's `state`).
#[derive(derive_more::Debug, Clone, PartialEq, Eq)]
pub struct TokenSet {
    pub access_token: SecretText,
    pub refresh_token: Option<SecretText>,
    /// Present for OIDC providers; verifying it is the adapter's job.
    pub id_token: Option<SecretText>,
    /// The scopes granted, when the answer names them.
    pub scopes: Option<Vec<String>>,
    pub expires_in: Option<Duration>,
    /// The answer's other members: what a `token:` claim pointer reads.
    #[debug(skip)]
    pub members: Map<String, Value>,
}

impl TokenSet {
    /// The tokens to seal and store, with the scopes granted: the answer's, else `asked`.
    pub fn into_provider_tokens(self, asked: &[String]) -> ProviderTokens {
        ProviderTokens {
            access_token: self.access_token,
            refresh_token: self.refresh_token,
            scopes: match self.scopes {
                Some(granted) => Scopes::from_words(granted),
                None => Scopes::from_words(asked),
            },
            expires_in: self.expires_in,
        }
    }
}
