//! What a provider's user endpoints answer and how they take the token: the userinfo gate
//! and document, a second call for the addresses, and what its id_tokens carry.

use super::ApiError;
use crate::template::Template;
use serde::Deserialize;
use serde::de::{self, Deserializer};

/// The user endpoint: how it takes the token, the scopes it needs, its API errors, and the
/// document it answers (its hooks' when absent).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserinfoRules {
    #[serde(default)]
    pub token_in: TokenIn,
    #[serde(default)]
    pub method: UserinfoMethod,
    /// The `Authorization` schemes it takes the token in (with `token_in = "header"`).
    #[serde(default = "bearer")]
    pub schemes: Vec<String>,
    /// Every group needs one of its scopes.
    #[serde(default)]
    pub scopes: Vec<Vec<String>>,
    /// Set: a request without `User-Agent` gets this answer (GitHub).
    pub user_agent: Option<ApiError>,
    /// No token at all; `bad_token` when absent.
    pub no_credentials: Option<ApiError>,
    pub bad_token: ApiError,
    pub missing_scope: Option<ApiError>,
    pub document: Option<Template>,
}

/// Where a user endpoint reads the access token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TokenIn {
    /// `Authorization: <scheme> <token>`, a scheme of the rules' `schemes`.
    #[default]
    Header,
    /// The token alone in this header (Amazon's `x-amz-access-token`).
    NamedHeader(String),
    /// A query parameter (Yandex's `oauth_token`, WeChat's `access_token`).
    Query(String),
    /// A field of a form body (VK ID's `access_token`).
    Form(String),
    /// The `{access_token}` segment of the path (HubSpot).
    Path,
}

impl<'de> Deserialize<'de> for TokenIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let named = |prefix: &str| {
            text.strip_prefix(prefix)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
        };
        match text.as_str() {
            "header" => Ok(Self::Header),
            "path" => Ok(Self::Path),
            _ => named("header:")
                .map(Self::NamedHeader)
                .or_else(|| named("query:").map(Self::Query))
                .or_else(|| named("form:").map(Self::Form))
                .ok_or_else(|| de::Error::custom(format!("unknown token_in {text:?}"))),
        }
    }
}

/// The method a user endpoint answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum UserinfoMethod {
    #[default]
    #[serde(rename = "GET")]
    Get,
    #[serde(rename = "POST")]
    Post,
}

/// A second call for the addresses: its token gate is the userinfo one's; each address of
/// the user is an `entry`, the answer `document` (with `{entries}`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailsRules {
    /// Every group needs one of its scopes.
    #[serde(default)]
    pub scopes: Vec<Vec<String>>,
    pub entry: Template,
    pub document: Template,
}

/// What its id_tokens carry besides `iss`, `sub`, `aud`, `azp`, times and `nonce`, and
/// what signs them.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IdTokenRules {
    /// Absent: the claims `email` and `profile` grant.
    pub claims: Option<Template>,
    pub signing: Signing,
    /// What its `iss` has after the provider's prefix (Auth0's trailing `/`, Okta's
    /// `/oauth2/default`).
    pub issuer_path: String,
}

/// What signs a provider's id_tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Signing {
    /// The simulator's RSA key (RS256), published in its key set.
    #[default]
    Rs256,
    /// The simulator's P-256 key (ES256), published in its key set (Roblox).
    Es256,
    /// HS256 with the client's secret, published nowhere (LINE).
    ClientSecret,
}

fn bearer() -> Vec<String> {
    vec!["bearer".to_owned()]
}
