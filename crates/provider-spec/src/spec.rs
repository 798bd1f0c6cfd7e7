//! The declaration of one provider: what it is, as data (docs/providers.md). The built-in
//! ones are read from `built_in.toml`; a provider from configuration is built from its table.
//!
//! The key names are the ones an operator writes in `[oauth_providers.<key>]` where they mean
//! the same, so a built-in declaration reads like a generic provider's table.

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
    /// When this provider's email counts as verified, and why: what `social-login
    /// providers` prints.
    #[serde(default)]
    pub email_note: String,
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

/// JSON Pointers (RFC 6901) into the provider's documents: the id_token claims, then the
/// userinfo answer (the userinfo answer only for the `oauth2` kind); one prefixed `token:`
/// reads the token response instead (never its tokens). A missing subject reads as empty,
/// which [`ProviderSpec::problems`] names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Claims {
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: EmailVerified,
    /// Fallbacks, first usable one wins; TOML takes one pointer or a list.
    #[serde(deserialize_with = "one_or_many")]
    pub name: Vec<String>,
    pub avatar_url: Option<String>,
    /// The organisation that manages the account (Google's `hd`); a provider that declares
    /// it has the sign-up policy's domain list check it too.
    pub hosted_domain: Option<String>,
}

/// When an email counts as verified by the provider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EmailVerified {
    /// Every pointer's value, read in the document that gave the email (a `token:` one in
    /// the token response), holds: a JSON `true`, the string `"true"` or the number 1;
    /// anything else is false (Kakao needs both of its flags).
    AllOf(Vec<String>),
    /// Whenever there is an email (X's `confirmed_email` is confirmed by definition).
    WhenPresent,
    /// Never (Facebook; a provider from configuration nobody vouched for).
    #[default]
    Never,
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
    /// Whether apps may sign in with an id_token they obtained natively.
    pub fn native_sign_in(&self) -> bool {
        self.id_token
            .as_ref()
            .is_some_and(|rules| rules.native_sign_in)
    }
}

impl Claims {
    /// The OpenID Connect claims (`sub`, `email`, `email_verified`, `name`, `picture`):
    /// what a provider from configuration reads unless its table names other pointers.
    pub fn openid_connect() -> Self {
        Self {
            subject: "/sub".into(),
            email: Some("/email".into()),
            email_verified: EmailVerified::AllOf(vec!["/email_verified".into()]),
            name: vec!["/name".into()],
            avatar_url: Some("/picture".into()),
            hosted_domain: None,
        }
    }

    /// Every pointer, with the field it is for (`claims.name[1]`).
    pub fn pointers(&self) -> Vec<(String, &str)> {
        let mut pointers = vec![("claims.subject".to_owned(), self.subject.as_str())];
        let optional = [
            ("email", &self.email),
            ("avatar_url", &self.avatar_url),
            ("hosted_domain", &self.hosted_domain),
        ];
        for (field, pointer) in optional {
            if let Some(pointer) = pointer {
                pointers.push((format!("claims.{field}"), pointer));
            }
        }
        if let EmailVerified::AllOf(flags) = &self.email_verified {
            for (index, pointer) in flags.iter().enumerate() {
                pointers.push((format!("claims.email_verified[{index}]"), pointer));
            }
        }
        for (index, pointer) in self.name.iter().enumerate() {
            pointers.push((format!("claims.name[{index}]"), pointer));
        }
        pointers
    }
}

/// A JSON Pointer (RFC 6901) that names a member: `/` then reference tokens, where `~` is
/// only ever `~0` or `~1`. The empty pointer (the whole document) names nothing we read.
pub fn is_json_pointer(raw: &str) -> bool {
    raw.starts_with('/')
        && raw
            .split('~')
            .skip(1)
            .all(|after| after.starts_with('0') || after.starts_with('1'))
}

/// The prefix of a claim pointer that reads the token response.
pub const TOKEN_RESPONSE: &str = "token:";

/// The members of a token response no pointer may read: the tokens themselves.
pub const TOKEN_MEMBERS: [&str; 3] = ["access_token", "refresh_token", "id_token"];

/// A claim pointer: a JSON Pointer, or `token:` and one into the token response that does
/// not name one of its tokens.
pub fn is_claim_pointer(raw: &str) -> bool {
    match raw.strip_prefix(TOKEN_RESPONSE) {
        Some(pointer) => {
            let first = pointer.trim_start_matches('/').split('/').next();
            is_json_pointer(pointer) && !first.is_some_and(|member| TOKEN_MEMBERS.contains(&member))
        }
        None => is_json_pointer(raw),
    }
}

impl<'de> Deserialize<'de> for EmailVerified {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            All(Vec<String>),
        }
        let expected = "email_verified: a pointer, a list of pointers that must all hold, \
                        \"when_present\" or \"never\"";
        match Raw::deserialize(deserializer).map_err(|_| de::Error::custom(expected))? {
            Raw::One(word) if word == "when_present" => Ok(Self::WhenPresent),
            Raw::One(word) if word == "never" => Ok(Self::Never),
            Raw::One(pointer) => Ok(Self::AllOf(vec![pointer])),
            Raw::All(pointers) if !pointers.is_empty() => Ok(Self::AllOf(pointers)),
            Raw::All(_) => Err(de::Error::custom(expected)),
        }
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

fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_pointers_name_a_member_and_escape_with_tilde_0_or_1_only() {
        for good in [
            "/sub",
            "/data/id",
            "/picture/data/url",
            "/a~1b",
            "/m~0n",
            "/0",
            "/",
        ] {
            assert!(is_json_pointer(good), "{good}");
        }
        for bad in ["", "sub", "/a~2", "/a~", "data/id", "#/sub"] {
            assert!(!is_json_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn email_verified_reads_a_pointer_or_one_of_two_words() {
        let read = |raw: &str| -> Result<EmailVerified, String> {
            #[derive(Deserialize)]
            struct Wrap {
                email_verified: EmailVerified,
            }
            toml::from_str::<Wrap>(&format!("email_verified = {raw:?}"))
                .map(|wrap| wrap.email_verified)
                .map_err(|error| error.to_string())
        };
        assert!(
            read("always").is_ok(),
            "read as a pointer, refused by the checks"
        );
        assert_eq!(
            read("/verified"),
            Ok(EmailVerified::AllOf(vec!["/verified".into()]))
        );
        assert_eq!(read("when_present"), Ok(EmailVerified::WhenPresent));
        assert_eq!(read("never"), Ok(EmailVerified::Never));
        let all = toml::from_str::<Claims>(
            "subject = \"/id\"\nemail_verified = [\"/a/valid\", \"/a/verified\"]",
        )
        .unwrap();
        assert_eq!(
            all.email_verified,
            EmailVerified::AllOf(vec!["/a/valid".into(), "/a/verified".into()])
        );
        assert!(
            toml::from_str::<Claims>("subject = \"/id\"\nemail_verified = []").is_err(),
            "an empty list vouches for nothing"
        );
    }

    #[test]
    fn a_claim_pointer_may_read_the_token_response_but_never_its_tokens() {
        for good in [
            "/sub",
            "token:/email",
            "token:/owner/user/id",
            "token:/user_id",
        ] {
            assert!(is_claim_pointer(good), "{good}");
        }
        for bad in [
            "token:email",
            "token:/access_token",
            "token:/refresh_token/x",
            "token:/id_token",
            "sub",
        ] {
            assert!(!is_claim_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn a_name_is_one_pointer_or_a_list_of_fallbacks() {
        let one: Claims = toml::from_str("subject = \"/id\"\nname = \"/name\"").unwrap();
        assert_eq!(one.name, ["/name"]);
        let many: Claims =
            toml::from_str("subject = \"/id\"\nname = [\"/global_name\", \"/username\"]").unwrap();
        assert_eq!(many.name, ["/global_name", "/username"]);
        assert_eq!(many.email_verified, EmailVerified::Never);
    }
}
