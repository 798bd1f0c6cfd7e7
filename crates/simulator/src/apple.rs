//! The simulated Sign in with Apple, served under `/apple`.
//!
//! What makes Apple different lives in its hooks: the authorize answer is an auto-submitting
//! HTML form (`response_mode=form_post`, mandatory once a scope is asked for) carrying the
//! `user` JSON only on a user's first authorization for a client, and an `id_token` when
//! `code id_token` is asked for; the client secret must be an ES256 JWT signed with the key
//! of a seeded team ([`AppleTeam`]); there is no userinfo endpoint, everything is in the
//! RS256 id_token, whose `email_verified` and `is_private_email` come as strings or booleans
//! ([`AppleKnobs`]); revoking a refresh token asks for consent again. Rust tests "submit"
//! the form with [`AppleFormPost::parse`].

mod client_secret;
pub(crate) mod form_post;
mod id_token;
mod knobs;
pub(crate) mod state;
pub(crate) mod team;

pub use form_post::AppleFormPost;
pub use knobs::{AppleKnobs, ClaimStyle};
pub use team::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM, APPLE_TEST_TEAM_ID, AppleTeam,
};

use crate::authorize::{AuthorizeQuery, Back, Mode};
use crate::claims::Subject;
use crate::flow::{Refusal, scopes, unix_now};
use crate::hooks::{Checked, Cx, Fields, SimHooks};
use crate::paths::EndpointSet;
use crate::revocation::TokenKind;
use crate::tokens::IssuedToken;
use axum::http::StatusCode;
use serde_json::Value;
use url::Host;

/// The `iss` of Apple's id_tokens, and the `aud` a client secret must name.
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";
/// What Apple's discovery document briefly advertised in June 2025.
const INCIDENT_ISSUER: &str = "https://account.apple.com";

/// The endpoint URLs of the simulated Apple, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppleEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub revoke: String,
    pub jwks: String,
    /// The `iss` its id_tokens carry: always Apple's real one, [`APPLE_ISSUER`].
    pub issuer: String,
}

impl From<EndpointSet> for AppleEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            discovery: e.discovery.unwrap_or_default(),
            authorization: e.authorization,
            token: e.token,
            revoke: e.revocation.unwrap_or_default(),
            jwks: e.jwks.unwrap_or_default(),
            issuer: e.issuer.unwrap_or_default(),
        }
    }
}

pub struct Apple;

impl SimHooks for Apple {
    /// The requested `response_mode` (with scopes only `form_post`: Apple never puts the
    /// name or the email in a URL), and `code` or `code id_token` (not in a query).
    fn answer_mode(&self, cx: &Cx<'_>, q: &AuthorizeQuery, back: &mut Back<'_>) -> Checked {
        let bad = |message, outcome| Refusal::page(StatusCode::BAD_REQUEST, message, outcome);
        // Real Apple takes only `https` redirect URIs on a domain: no `localhost`, no IP.
        let domain = matches!(back.url.host(), Some(Host::Domain(d)) if d != "localhost");
        if cx.sim.apple.knobs.get().strict_redirect_uris
            && !(back.url.scheme() == "https" && domain)
        {
            return Err(cx.dialect.authorize.unregistered_redirect.refusal());
        }
        back.mode = match q.response_mode.as_deref() {
            None | Some("query") => Mode::Query,
            Some("fragment") => Mode::Fragment,
            Some("form_post") => Mode::FormPost,
            Some(_) => return Err(bad("invalid_request", "invalid_request")),
        };
        if !scopes(q.scope.as_deref(), &[' ']).is_empty() && back.mode != Mode::FormPost {
            let message = "invalid_request: response_mode must be form_post when name or email scope is requested.";
            return Err(bad(message, "invalid_request"));
        }
        let with_id_token =
            with_id_token(q).ok_or_else(|| back.refuse("unsupported_response_type", None, &[]))?;
        if with_id_token && back.mode == Mode::Query {
            return Err(bad("invalid_request", "invalid_request"));
        }
        Ok(())
    }

    /// The `id_token` of `code id_token`, and `user` on a first authorization.
    fn approval(&self, cx: &Cx<'_>, q: &AuthorizeQuery, subject: &Subject<'_>) -> Fields {
        let knobs = cx.sim.apple.knobs.get();
        let first = cx
            .sim
            .apple
            .first_authorization(subject.client_id, &subject.user.id);
        let posted_user = first
            .then(|| id_token::first_login_user(subject, knobs))
            .flatten();
        let id_token = with_id_token(q)
            .unwrap_or_default()
            .then(|| crate::id_token::issue(cx, subject, None));
        let mut extra = Vec::new();
        extra.extend(id_token.map(|t| ("id_token", t)));
        extra.extend(posted_user.map(|u| ("user", u)));
        extra
    }

    fn signed_secret(&self, cx: &Cx<'_>, client_id: &str, secret: &str) -> Option<(i64, i64)> {
        client_secret::verify(&cx.sim.apple.teams, client_id, secret, unix_now())
    }

    /// After a revocation Apple asks for consent again, and posts `user` again (TN3194).
    fn revoked(&self, cx: &Cx<'_>, kind: TokenKind, issued: &IssuedToken) {
        if kind == TokenKind::Refresh {
            cx.sim
                .apple
                .forget_authorization(&issued.client_id, &issued.user.id);
        }
    }

    fn issuer(&self, _: &Cx<'_>) -> String {
        APPLE_ISSUER.to_owned()
    }

    fn announced_issuer(&self, cx: &Cx<'_>) -> String {
        let incident = cx.sim.apple.knobs.get().advertise_account_apple_issuer;
        if incident {
            INCIDENT_ISSUER
        } else {
            APPLE_ISSUER
        }
        .to_owned()
    }

    fn id_token_claims(&self, cx: &Cx<'_>, subject: &Subject<'_>, now: i64) -> Value {
        id_token::id_token_claims(cx.sim, subject, now)
    }
}

/// Whether the `response_type` is `code id_token` (`Some(false)`: `code`; `None`: neither).
fn with_id_token(q: &AuthorizeQuery) -> Option<bool> {
    let mut parts: Vec<&str> = q
        .response_type
        .as_deref()
        .unwrap_or_default()
        .split(' ')
        .collect();
    parts.retain(|p| !p.is_empty());
    parts.sort_unstable();
    match parts.as_slice() {
        ["code"] => Some(false),
        ["code", "id_token"] => Some(true),
        _ => None,
    }
}
