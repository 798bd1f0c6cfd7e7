//! The token and revocation endpoints' manners: the body they read, the client
//! authentication they take, the checks' errors, and the shape of their answers.

use super::ErrorSpec;
use crate::template::Template;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRules {
    #[serde(default)]
    pub body: BodyRule,
    /// The names it reads parameters by, where they are not OAuth's (WeChat's `appid`,
    /// DingTalk's `clientId`): OAuth's name to the provider's.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    pub client_auth: ClientAuthRule,
    #[serde(default = "authorization_code")]
    pub grant_types: Vec<String>,
    /// Checked only when the request names one (GitHub).
    #[serde(default)]
    pub redirect_uri_optional: bool,
    /// False: the verifier is never compared (LinkedIn's web apps; its hooks may still).
    #[serde(default = "yes")]
    pub pkce_checked: bool,
    pub answer: TokenAnswer,
    pub errors: TokenErrors,
}

impl TokenRules {
    /// Whether it takes `grant_type`: one it lists, or the refresh grant wherever it issues
    /// refresh tokens (the service's relay redeems them at every provider that does).
    pub fn accepts_grant(&self, grant_type: &str) -> bool {
        self.grant_types.iter().any(|known| known == grant_type)
            || (grant_type == "refresh_token" && self.answer.refresh.is_some())
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyRule {
    /// `application/x-www-form-urlencoded` only.
    #[default]
    Form,
    /// A form, or JSON when labelled so (GitHub).
    FormOrJson,
    /// A JSON object only (Notion, DingTalk).
    Json,
    /// Parameters in the query or a form body, the body winning; GET or POST (Facebook).
    QueryAndForm,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientAuthRule {
    pub methods: Vec<AuthMethod>,
    #[serde(default)]
    pub basic_header: BasicHeader,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthMethod {
    ClientSecretBasic,
    ClientSecretPost,
    /// A public client (registered without a secret) naming itself in the body.
    None,
    /// A client naming itself in the body, whatever secret it is registered with: no
    /// secret is asked at the exchange (VK ID, whose apps' keys serve other calls).
    ClientIdOnly,
    /// The body's `client_secret` is a JWT the provider's hooks verify (Apple).
    SignedSecretPost,
}

/// What an `Authorization: Basic` header means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BasicHeader {
    /// It is the client's credentials, whatever the body says (RFC 6749 §2.3.1).
    #[default]
    Wins,
    /// Only the body counts; the header is logged when the body names no client.
    Ignored,
    /// Any `Authorization` header fails the client, even beside good body credentials.
    Refused,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TokenAnswer {
    /// The access token is this followed by 36 random characters.
    pub access_prefix: String,
    /// Absent: the answer has no `token_type` (WeChat).
    pub token_type: Option<String>,
    pub expires_in: Option<u64>,
    /// Absent: the answer names no scope.
    pub scope_separator: Option<String>,
    /// The scope as a JSON array (Twitch).
    pub scope_as_array: bool,
    /// Slack's `"ok": true` member.
    pub ok: bool,
    pub extra: Map<String, Value>,
    /// Members naming the user (WeChat's `openid`, Notion's `owner`).
    pub user: Option<Template>,
    /// The names of its members, where they are not OAuth's (DingTalk's `accessToken`):
    /// OAuth's name to the provider's.
    pub names: BTreeMap<String, String>,
    /// The `Content-Type` it labels its JSON with, where that is not JSON's (WeChat's
    /// `text/plain`).
    pub content_type: Option<String>,
    pub refresh: Option<RefreshRule>,
    pub id_token: IdTokenWhen,
    /// The id_token carries the access token's `at_hash`.
    pub at_hash: bool,
}

/// A refresh token beside the access token of a code exchange (and of a refresh grant when
/// the refresh knobs turn rotation on).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefreshRule {
    /// Only when this scope was granted; always when absent.
    pub scope: Option<String>,
    #[serde(default)]
    pub prefix: String,
    #[serde(default = "thirty_six")]
    pub length: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdTokenWhen {
    #[default]
    Never,
    WithOpenid,
    Always,
}

/// The answer to each failed check, in the dialect's envelope.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenErrors {
    pub not_form: ErrorSpec,
    /// Absent: `grant_type` may be left out.
    pub missing_grant_type: Option<ErrorSpec>,
    pub unsupported_grant_type: ErrorSpec,
    /// No client, an unknown one, or one authenticating a way the provider does not take.
    pub bad_client: ErrorSpec,
    /// A known client with a wrong or missing secret; `bad_client` when absent.
    pub bad_secret: Option<ErrorSpec>,
    /// Set: the redirect URI is required, checked before the code.
    pub missing_redirect: Option<ErrorSpec>,
    pub missing_code: ErrorSpec,
    /// Never issued, used, or another client's.
    pub bad_code: ErrorSpec,
    /// `bad_code` when absent.
    pub expired_code: Option<ErrorSpec>,
    pub redirect_mismatch: ErrorSpec,
    /// The answers of the PKCE checks.
    pub verifier: VerifierErrors,
}

/// The answers of the token endpoint's PKCE checks.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifierErrors {
    /// Set: a verifier that is not 43 to 128 unreserved characters is refused at once.
    pub malformed: Option<ErrorSpec>,
    /// Set: a verifier for a code issued without a challenge is refused.
    pub stray: Option<ErrorSpec>,
    /// A challenge was stored and no verifier came; `bad` when absent.
    pub missing: Option<ErrorSpec>,
    pub bad: ErrorSpec,
}

/// An RFC 7009 revocation endpoint's manners (client errors are the token endpoint's).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevokeRules {
    /// False: no client authentication; the token's own client is the one (Google).
    #[serde(default = "yes")]
    pub client_auth: bool,
    pub reach: crate::revocation::Reach,
    /// The JSON answer; an empty 200 when absent.
    pub answer: Option<Value>,
    /// No `token`, or a body that is not a form.
    pub missing_token: ErrorSpec,
    /// Set: a token that is not live is refused (and not recorded); else answered as revoked.
    pub unknown_token: Option<ErrorSpec>,
}

fn authorization_code() -> Vec<String> {
    vec!["authorization_code".to_owned()]
}

fn yes() -> bool {
    true
}

fn thirty_six() -> usize {
    36
}
