//! The fields only a provider from configuration has (docs/configuration.md, "Providers
//! from configuration"): its kind, token endpoint authentication and claim pointers.

use serde::{Deserialize, Deserializer, de};
use social_login_domain::ProviderKind;

/// `kind = "oidc" | "oauth2"`; any other word is named by validation's wording.
pub(super) fn kind<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ProviderKind>, D::Error> {
    let raw = String::deserialize(deserializer)?;
    raw.parse().map(Some).map_err(de::Error::custom)
}

/// The scopes a provider of `kind = "oidc"` asks for unless configured (`oauth2` has no
/// default: its scopes are the provider's own words).
pub const DEFAULT_OIDC_SCOPES: [&str; 3] = ["openid", "email", "profile"];

/// How the client authenticates at a provider's token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenEndpointAuth {
    /// HTTP Basic with the client id and secret (RFC 6749 §2.3.1).
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
}

/// JSON Pointers (RFC 6901) into the provider's documents: the id_token claims merged with
/// the userinfo answer (`oauth2` kind: the userinfo answer only). Each unset one is the
/// OpenID Connect claim of the same meaning.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClaimsConfig {
    pub subject: Option<String>,
    pub email: Option<String>,
    /// Read only when `trust_email_verified = true`: a JSON `true` or the string `"true"`.
    pub email_verified: Option<String>,
    pub name: Option<String>,
    pub avatar_url: Option<String>,
}

impl ClaimsConfig {
    pub const DEFAULT_SUBJECT: &str = "/sub";
    pub const DEFAULT_EMAIL: &str = "/email";
    pub const DEFAULT_EMAIL_VERIFIED: &str = "/email_verified";
    pub const DEFAULT_NAME: &str = "/name";
    pub const DEFAULT_AVATAR_URL: &str = "/picture";

    /// Each pointer with its field name, the defaults filled in.
    pub fn pointers(&self) -> [(&'static str, &str); 5] {
        fn or<'a>(set: &'a Option<String>, default: &'static str) -> &'a str {
            set.as_deref().unwrap_or(default)
        }
        [
            ("subject", or(&self.subject, Self::DEFAULT_SUBJECT)),
            ("email", or(&self.email, Self::DEFAULT_EMAIL)),
            (
                "email_verified",
                or(&self.email_verified, Self::DEFAULT_EMAIL_VERIFIED),
            ),
            ("name", or(&self.name, Self::DEFAULT_NAME)),
            ("avatar_url", or(&self.avatar_url, Self::DEFAULT_AVATAR_URL)),
        ]
    }
}

/// RFC 6901: empty (the whole document) or `/`-separated tokens in which `~` is only ever
/// followed by `0` or `1`. The empty pointer is refused: a claim is a member, never the
/// whole document.
pub(crate) fn is_json_pointer(pointer: &str) -> bool {
    pointer.starts_with('/')
        && pointer
            .split('~')
            .skip(1)
            .all(|after| after.starts_with('0') || after.starts_with('1'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_pointers_start_with_a_slash_and_escape_with_tilde_0_or_1_only() {
        for good in ["/sub", "/data/id", "/a~1b", "/m~0n", "/0", "/"] {
            assert!(is_json_pointer(good), "{good}");
        }
        for bad in ["", "sub", "/a~2", "/a~", "data/id", "#/sub"] {
            assert!(!is_json_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn unset_pointers_are_the_openid_connect_claims() {
        let claims = ClaimsConfig {
            subject: Some("/data/id".into()),
            ..ClaimsConfig::default()
        };
        assert_eq!(
            claims.pointers(),
            [
                ("subject", "/data/id"),
                ("email", "/email"),
                ("email_verified", "/email_verified"),
                ("name", "/name"),
                ("avatar_url", "/picture"),
            ]
        );
    }
}
