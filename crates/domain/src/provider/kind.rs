//! The two kinds of provider: OpenID Connect (an id_token proves who signed in) and plain
//! OAuth 2.0 (the identity comes from a userinfo API).

use crate::named::named_enum;

/// How a provider proves who signed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Oidc,
    OAuth2,
}

impl ProviderKind {
    /// The word used in configuration and in `GET /auth/oauth/providers`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Oidc => "oidc",
            Self::OAuth2 => "oauth2",
        }
    }
}

/// Neither `"oidc"` nor `"oauth2"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown kind: must be \"oidc\" or \"oauth2\"")]
pub struct UnknownKind;

named_enum!(ProviderKind, all: [ProviderKind::Oidc, ProviderKind::OAuth2], unknown: UnknownKind);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_round_trips_through_its_word_and_nothing_else_parses() {
        for kind in [ProviderKind::Oidc, ProviderKind::OAuth2] {
            assert_eq!(kind.as_str().parse(), Ok(kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        for bad in ["", "OIDC", "oauth", "saml", " oidc"] {
            assert_eq!(bad.parse::<ProviderKind>(), Err(UnknownKind), "{bad:?}");
        }
    }
}
