//! The declaration of one provider: what it is, as data (docs/providers.md). The built-in
//! ones are read from `built_in.toml`; a provider from configuration is built from its table.
//!
//! The key names are the ones an operator writes in `[oauth_providers.<key>]` where they mean
//! the same, so a built-in declaration reads like a generic provider's table.

pub use crate::claims::{
    Claims, EmailVerified, TOKEN_MEMBERS, TOKEN_RESPONSE, is_claim_pointer, is_json_pointer,
};
use crate::knobs::{EmailsList, IdTokenSigning, TokenRequest, Userinfo};
use serde::{Deserialize, Deserializer, de};
use social_login_domain::{ProviderKey, ProviderKind};
use std::collections::BTreeMap;

/// One provider: where it is, what to ask for, how to read who signed in, and how it revokes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSpec {
    #[serde(deserialize_with = "provider_key")]
    pub key: ProviderKey,
    /// What a sign-in button says ("GitHub", "X").
    pub display_name: String,
    #[serde(deserialize_with = "provider_kind")]
    pub kind: ProviderKind,
    pub endpoints: Endpoints,
    /// The scopes asked for unless the operator configures others.
    pub scopes: Vec<String>,
    /// The scope without which no email comes (for documents and the conformance kit).
    pub email_scope: Option<String>,
    /// The provider refuses an authorization without a PKCE challenge: `pkce = false` is
    /// ignored (with a warning) rather than breaking every sign-in.
    #[serde(default)]
    pub pkce_required: bool,
    /// `false`: the provider refuses (or mishandles) a PKCE challenge, so none is sent
    /// whatever the operator's `pkce` says.
    #[serde(default = "yes")]
    pub pkce: bool,
    #[serde(rename = "token_endpoint_auth")]
    pub token_auth: TokenAuth,
    /// Extra parameters of every authorization URL (Apple's `response_mode = "form_post"`,
    /// Atlassian's `audience` and `prompt`).
    #[serde(default)]
    pub authorization_params: BTreeMap<String, String>,
    /// The parameter that carries the client id in the authorization URL and the token
    /// request (TikTok: `client_key`, WeChat: `appid`).
    #[serde(default = "client_id_param")]
    pub client_id_param: String,
    /// The parameter that carries the client secret in a token request body.
    #[serde(default = "client_secret_param")]
    pub client_secret_param: String,
    /// How scopes are joined in the authorization URL (TikTok: `,`).
    #[serde(default = "space")]
    pub scope_separator: String,
    /// Sent as `User-Agent` on every call to the provider instead of the service's own
    /// (Reddit refuses calls without a unique one).
    pub user_agent: Option<String>,
    #[serde(default)]
    pub token_request: TokenRequest,
    #[serde(default)]
    pub userinfo: Userinfo,
    /// A second call for the addresses (`endpoints.emails`), read by these pointers.
    pub emails: Option<EmailsList>,
    pub claims: Claims,
    /// `oidc` kind only: how its id_tokens are checked.
    pub id_token: Option<IdTokenRules>,
    #[serde(default)]
    pub id_token_signing: IdTokenSigning,
    /// `None`: the provider has no revocation endpoint (Microsoft).
    pub revocation: Option<RevocationRules>,
    /// Where the provider's API is, for calls made on a user's behalf.
    #[serde(default)]
    pub relay_base_urls: Vec<String>,
    /// The hooks, in code, of what no knob can say (`"github"`, `"wechat"`); the adapter
    /// crate that has them builds the provider.
    pub quirks: Option<String>,
    /// Per-tenant providers: the issuer everything `{issuer}` in the declaration stands
    /// for, unless the operator names another; `None` with `needs = ["issuer"]`: the
    /// operator must.
    pub issuer: Option<String>,
    /// What the operator must set besides `client_id`, `client_secret` and `redirect_uri`
    /// (`"issuer"`).
    #[serde(default)]
    pub needs: Vec<String>,
    /// Where the email rule of `claims` holds; elsewhere the emails count as unverified
    /// unless the operator names the flag (`claims.email_verified`).
    #[serde(default)]
    pub email_trust: EmailTrust,
    /// When this provider's email counts as verified, and why: what `social-login
    /// providers` prints.
    #[serde(default)]
    pub email_note: String,
}

/// Where a declaration's email rule holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmailTrust {
    /// Wherever the provider is: its flag means what its documentation says on every tenant.
    #[default]
    Everywhere,
    /// At the declaration's own `issuer` only: another instance's flag depends on how its
    /// administrators set it up (a self-managed GitLab confirms no address by default).
    DefaultIssuer,
    /// Only where the operator names the flag: it is whatever the administrators of any
    /// organization on the instance set (ZITADEL).
    Operator,
}

fn yes() -> bool {
    true
}

fn client_id_param() -> String {
    "client_id".to_owned()
}

fn client_secret_param() -> String {
    "client_secret".to_owned()
}

fn space() -> String {
    " ".to_owned()
}

/// The provider's public endpoints; the operator may override each. A missing URL reads as
/// empty, which [`ProviderSpec::problems`] names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Endpoints {
    pub authorization: String,
    pub token: String,
    pub userinfo: Option<String>,
    /// GitHub's separate list of the account's emails.
    pub emails: Option<String>,
    /// The key set of the id_tokens (`oidc` kind).
    pub jwks: Option<String>,
    /// Where a refresh goes when it is not the token endpoint (WeChat's
    /// `/sns/oauth2/refresh_token`).
    pub refresh: Option<String>,
}

/// How the client authenticates at the token endpoint (and, where the revocation rules say
/// `like_token`, at the revocation endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuth {
    /// HTTP Basic; a client without a secret sends its `client_id` in the body instead.
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
    /// Like `ClientSecretPost`, with a secret the adapter signs per request (Apple's ES256
    /// JWT): no static secret is configured.
    SignedSecretPost,
}

/// What an `oidc` provider's id_tokens must satisfy besides signature, audience and times.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdTokenRules {
    /// Accepted `iss` values; a quirk may read them as a template (Microsoft's `{tenantid}`).
    pub issuers: Vec<String>,
    pub nonce: NonceRule,
    /// Apps may post an id_token they obtained on the device (`/id-token`).
    #[serde(default)]
    pub native_sign_in: bool,
    /// The signature algorithms its id_tokens may use (JWA names); RS256 unless declared.
    #[serde(default = "rs256")]
    pub algorithms: Vec<String>,
}

/// The algorithm every OpenID provider supports (OpenID Connect Core §15.1).
fn rs256() -> Vec<String> {
    vec!["RS256".to_owned()]
}

/// Whether the provider echoes the authorization request's nonce in its id_token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonceRule {
    Required,
    /// LinkedIn never echoes it: a token without one passes, one with another fails.
    IfPresent,
}

/// How a grant is revoked (RFC 7009 unless a quirk builds the request itself).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevocationRules {
    /// `{client_id}` in it is replaced by the client id (GitHub's grant URL).
    pub url: String,
    pub client_auth: RevocationAuth,
    pub sends: RevokedToken,
    /// A `token_type_hint` naming the token goes with it.
    #[serde(default)]
    pub hint: bool,
    /// Answers that mean "that grant is already gone", which is what revocation wanted.
    #[serde(default)]
    pub already_gone: Vec<AlreadyGone>,
}

/// How the client authenticates at the revocation endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevocationAuth {
    None,
    /// As at the token endpoint ([`TokenAuth`]).
    LikeToken,
}

/// Which token of the grant is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevokedToken {
    /// The refresh token when the grant has one (revoking it ends the grant), else the
    /// access token.
    RefreshFirst,
    AccessToken,
}

/// A documented "already invalid" answer: its status and `error` member.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlreadyGone {
    pub status: u16,
    pub error: String,
}

impl ProviderSpec {
    /// Whether apps may sign in with an id_token they obtained natively. Never with id_tokens
    /// signed with the client secret: an app that holds the secret (shipped in it) could sign
    /// a token for anyone.
    pub fn native_sign_in(&self) -> bool {
        self.id_token_signing == IdTokenSigning::KeySet
            && self
                .id_token
                .as_ref()
                .is_some_and(|rules| rules.native_sign_in)
    }

    /// Whether the declaration reads an address at all (a claim, or an emails list).
    pub fn reads_an_address(&self) -> bool {
        self.claims.email.is_some() || self.emails.is_some()
    }

    /// Whether the provider may vouch for an address: a verified flag, or one per entry of
    /// its emails list. Where it cannot, every address it gives counts as unverified.
    pub fn may_vouch_for_an_address(&self) -> bool {
        let listed = self
            .emails
            .as_ref()
            .is_some_and(|list| list.verified.is_some());
        self.claims.email_verified != EmailVerified::Never || listed
    }
}

fn provider_kind<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ProviderKind, D::Error> {
    let raw = String::deserialize(deserializer)?;
    raw.parse().map_err(de::Error::custom)
}

fn provider_key<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ProviderKey, D::Error> {
    let raw = String::deserialize(deserializer)?;
    raw.parse()
        .map_err(|_| de::Error::custom("not a provider key"))
}
