//! The authorize endpoint's manners: error pages, the redirect URI rule, what it checks of
//! `response_type`, scopes and PKCE, and the words of each refusal.

use super::Page;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthorizeRules {
    /// The names it reads parameters by, where they are not OAuth's (WeChat's `appid`,
    /// TikTok's `client_key`): OAuth's name to the provider's.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// The page for a client the provider does not know (never a redirect).
    pub unknown_client: Page,
    /// The page for a callback it will not redirect to.
    pub unregistered_redirect: Page,
    #[serde(default)]
    pub redirect_uri: RedirectRule,
    /// Set: `state` is required and at most this long, else the page (X).
    pub state: Option<StateRule>,
    #[serde(default)]
    pub response_type: ResponseTypeRule,
    pub scopes: ScopeRule,
    /// Absent: PKCE parameters are recorded, not checked.
    pub pkce: Option<PkceRule>,
    /// Granted whether asked for or not (Facebook's `public_profile`).
    #[serde(default)]
    pub always_granted: Vec<String>,
    /// The error of a user who refuses (`sim_deny`), and its extra fields.
    pub deny: String,
    #[serde(default)]
    pub deny_extra: Vec<(String, String)>,
    /// The `error_description` of every refusal, unless `descriptions` says otherwise.
    pub description: Option<String>,
    #[serde(default)]
    pub descriptions: Descriptions,
    /// GitHub's own `login` parameter names the account to sign in as, like `login_hint`.
    #[serde(default)]
    pub login_param: bool,
}

/// Which callback a request may name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedirectRule {
    /// Required, and equal to a registered one.
    #[default]
    Exact,
    /// Equal to a registered one; the first registered when none is named.
    ExactOrFirst,
    /// GitHub's: same host (sub-domains too) and port, the path at or below the registered
    /// one; a mismatch is reported to the registered callback.
    BelowRegistered,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRule {
    pub max_length: usize,
    pub page: Page,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseTypeRule {
    /// `code` and nothing else.
    #[default]
    Code,
    /// `code` when present.
    CodeIfPresent,
    /// Not looked at here (GitHub ignores it; Apple's hooks read it).
    Unchecked,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeRule {
    #[serde(default = "space")]
    pub separators: String,
    #[serde(default)]
    pub required: bool,
    /// Non-empty: any other scope is refused.
    #[serde(default)]
    pub known: Vec<String>,
    #[serde(default = "invalid_scope")]
    pub error: String,
}

impl ScopeRule {
    /// The scopes of a `scope` parameter.
    pub fn split(&self, raw: Option<&str>) -> Vec<String> {
        let separators: Vec<char> = self.separators.chars().collect();
        crate::flow::scopes(raw, &separators)
    }

    /// Whether `granted` is acceptable.
    pub fn allows(&self, granted: &[String]) -> bool {
        !(self.required && granted.is_empty())
            && (self.known.is_empty() || granted.iter().all(|s| self.known.contains(s)))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PkceRule {
    /// `S256`, `plain`.
    pub methods: Vec<String>,
    pub without_method: WithoutMethod,
    /// A `code_challenge_method` without a challenge: refused, or ignored (GitHub).
    #[serde(default)]
    pub method_alone: MethodAlone,
    /// A challenge is mandatory (X).
    #[serde(default)]
    pub required: bool,
}

/// What a challenge without `code_challenge_method` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithoutMethod {
    /// `plain` (RFC 7636 §4.3).
    Plain,
    /// `plain`, which this provider does not take.
    Unsupported,
    /// A missing parameter.
    Missing,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MethodAlone {
    #[default]
    Refused,
    Ignored,
}

/// A refusal whose `error_description` a dialect may give; `pkce` covers the four PKCE
/// ones unless they have their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Described {
    ResponseType,
    Scope,
    Pkce,
    MissingChallenge,
    MissingMethod,
    UnsupportedMethod,
    InvalidChallenge,
    Deny,
}

/// The descriptions of the refusals a dialect words its own way.
pub type Descriptions = BTreeMap<Described, String>;

fn space() -> String {
    " ".to_owned()
}

fn invalid_scope() -> String {
    "invalid_scope".to_owned()
}
