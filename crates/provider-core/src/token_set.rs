//! The tokens a code exchange yields, and the extra token field OIDC providers add.

use oauth2::ExtraTokenFields;
use serde::{Deserialize, Serialize};
use social_login_domain::{ProviderTokens, SecretText};
use std::fmt;

/// What a successful code exchange returned. `Debug` shows no token (they are `SecretText`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenSet {
    pub access_token: SecretText,
    pub refresh_token: Option<SecretText>,
    /// Present for OIDC providers; verifying it is the adapter's job.
    pub id_token: Option<SecretText>,
}

impl TokenSet {
    /// The tokens to seal and store.
    pub fn into_provider_tokens(self) -> ProviderTokens {
        ProviderTokens {
            access_token: self.access_token,
            refresh_token: self.refresh_token,
        }
    }
}

/// The one extra token field any of our providers returns.
#[derive(Clone, Default, Deserialize, Serialize)]
pub struct IdTokenField {
    #[serde(default)]
    id_token: Option<String>,
}

impl IdTokenField {
    pub fn id_token(&self) -> Option<SecretText> {
        self.id_token.clone().map(SecretText::new)
    }
}

impl fmt::Debug for IdTokenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("IdTokenField([redacted])")
    }
}

impl ExtraTokenFields for IdTokenField {}
