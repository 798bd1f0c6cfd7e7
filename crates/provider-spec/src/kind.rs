//! The two kinds of provider: OpenID Connect (an id_token proves who signed in) and plain
//! OAuth 2.0 (the identity comes from a userinfo API).

use std::fmt;
use std::str::FromStr;

/// How a provider proves who signed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Oidc,
    OAuth2,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Oidc => "oidc",
            Self::OAuth2 => "oauth2",
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Neither `"oidc"` nor `"oauth2"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKind;

impl FromStr for ProviderKind {
    type Err = UnknownKind;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        [Self::Oidc, Self::OAuth2]
            .into_iter()
            .find(|kind| kind.as_str() == raw)
            .ok_or(UnknownKind)
    }
}
