//! The simulated Sign in with Apple (PROVIDERS.md §8, §11.9), served under `/apple`.
//!
//! What it checks is what makes Apple different: the authorize answer is an auto-submitting
//! HTML form (`response_mode=form_post`, mandatory once a scope is asked for) carrying the
//! `user` JSON only on a user's first authorization for a client; the token endpoint takes
//! `client_secret_post` only, and the secret must be an ES256 JWT signed with the key of a
//! seeded team ([`AppleTeam`]); there is no userinfo endpoint, everything is in the RS256
//! id_token, whose `email_verified` and `is_private_email` come as strings or booleans
//! ([`AppleKnobs`]). Rust tests "submit" the form with [`AppleFormPost::parse`].

mod client_secret;
mod form_post;
mod id_token;
mod knobs;
mod state;
mod team;
mod token;

pub use form_post::AppleFormPost;
pub(crate) use form_post::render as render_form_post;
pub(crate) use id_token::id_token_claims;
pub use knobs::{AppleKnobs, ClaimStyle};
pub(crate) use state::AppleState;
pub use team::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM, APPLE_TEST_TEAM_ID, AppleTeam,
};

use crate::authorize::{AuthorizeQuery, Back, Mode};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{Refusal, jwks, scopes, serve};
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;
use url::Host;

/// The `iss` of Apple's id_tokens, and the `aud` a client secret must name.
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";
/// What Apple's discovery document briefly advertised in June 2025.
const INCIDENT_ISSUER: &str = "https://account.apple.com";
const P: Provider = Provider::Apple;

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

impl AppleEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            discovery: format!("{base_url}/apple/.well-known/openid-configuration"),
            authorization: format!("{base_url}/apple/auth/authorize"),
            token: format!("{base_url}/apple/auth/token"),
            revoke: format!("{base_url}/apple/auth/revoke"),
            jwks: format!("{base_url}/apple/auth/keys"),
            issuer: APPLE_ISSUER.to_owned(),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/.well-known/openid-configuration", get(configuration))
        .route("/auth/authorize", get(authorize))
        .route("/auth/token", post(token::token))
        .route("/auth/revoke", post(token::revoke))
        .route(
            "/auth/keys",
            get(
                |State(sim): State<Arc<SimState>>, headers: HeaderMap| async move {
                    jwks(&sim, P, &headers).await
                },
            ),
        )
}

/// `POST /_control/apple_knobs`: replaces the Apple knobs.
pub(crate) async fn set_knobs(
    State(sim): State<Arc<SimState>>,
    Json(knobs): Json<AppleKnobs>,
) -> StatusCode {
    sim.apple.set_knobs(knobs);
    StatusCode::NO_CONTENT
}

/// The discovery document (PROVIDERS.md §8.1). No userinfo endpoint: Apple has none.
async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let incident = sim.apple.knobs().advertise_account_apple_issuer;
    let base = format!("{}/apple", sim.base_url);
    let body = json!({
        "issuer": if incident { INCIDENT_ISSUER } else { APPLE_ISSUER },
        "authorization_endpoint": format!("{base}/auth/authorize"),
        "token_endpoint": format!("{base}/auth/token"),
        "revocation_endpoint": format!("{base}/auth/revoke"),
        "jwks_uri": format!("{base}/auth/keys"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "name"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "is_private_email",
            "iss", "nonce", "nonce_supported", "real_user_status", "sub", "transfer_sub"],
    });
    serve(
        &sim,
        RequestRecord::new(P, Endpoint::Discovery, &headers),
        |_| Ok(Json(body)),
    )
    .await
}

/// Checks the request the way Apple does (an error page, never a redirect, for an unknown
/// client or callback) and answers through the requested `response_mode`: with scopes,
/// only `form_post`, whose page carries `user` on a first authorization.
async fn authorize(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(q): Query<AuthorizeQuery>,
) -> Response {
    serve(&sim, q.record(P, &headers), |_| {
        let bad = |message, outcome| Refusal::page(StatusCode::BAD_REQUEST, message, outcome);
        let client = q.client(&sim, P).ok_or_else(|| bad("invalid_client", "invalid_client"))?;
        // Real Apple takes only `https` redirect URIs on a domain: no `localhost`, no IP.
        let strict = sim.apple.knobs().strict_redirect_uris;
        let redirect = q.exact_redirect(client, false).filter(|(_, url)| {
            !strict || url.scheme() == "https" && matches!(url.host(), Some(Host::Domain(d)) if d != "localhost")
        });
        let invalid_redirect = || bad("invalid_request: Invalid web redirect url.", "invalid_redirect_uri");
        let mut back = Back::new(redirect.ok_or_else(invalid_redirect)?, &q);
        back.mode = match q.response_mode.as_deref() {
            None | Some("query") => Mode::Query,
            Some("fragment") => Mode::Fragment,
            Some("form_post") => Mode::FormPost,
            Some(_) => return Err(bad("invalid_request", "invalid_request")),
        };
        let granted = scopes(q.scope.as_deref(), &[' ']);
        // Apple never puts the name or the email in a URL (PROVIDERS.md §8.2).
        if !granted.is_empty() && back.mode != Mode::FormPost {
            let message = "invalid_request: response_mode must be form_post when name or email scope is requested.";
            return Err(bad(message, "invalid_request"));
        }
        let mut parts: Vec<&str> = q.response_type.as_deref().unwrap_or_default().split(' ').collect();
        parts.retain(|p| !p.is_empty());
        parts.sort_unstable();
        let with_id_token = match parts.as_slice() {
            ["code"] => false,
            ["code", "id_token"] => true,
            _ => return Err(back.refuse("unsupported_response_type", &[])),
        };
        if with_id_token && back.mode == Mode::Query {
            return Err(bad("invalid_request", "invalid_request"));
        }
        if !granted.iter().all(|s| matches!(s.as_str(), "openid" | "name" | "email")) {
            return Err(back.refuse("invalid_scope", &[]));
        }
        // Apple documents no PKCE but enforces an S256 challenge once one is sent (§8.2).
        if !q.challenge_ok(false) {
            return Err(back.refuse("invalid_request", &[]));
        }
        if q.sim_deny.is_some() {
            return Err(back.refuse("user_cancelled_authorize", &[]));
        }
        let user = q.user(&sim, None)?;
        let subject = crate::id_token::Subject {
            client_id: &client.client_id,
            user: &user,
            scopes: &granted,
            nonce: q.nonce.as_deref(),
        };
        let knobs = sim.apple.knobs();
        let posted_user = sim
            .apple
            .first_authorization(&client.client_id, &user.id)
            .then(|| id_token::first_login_user(&subject, knobs))
            .flatten();
        let id_token = with_id_token.then(|| crate::id_token::issue(&sim, P, &subject, None));
        let mut extra = Vec::new();
        extra.extend(id_token.as_deref().map(|t| ("id_token", t)));
        extra.extend(posted_user.as_deref().map(|u| ("user", u)));
        let approved = (client.client_id.as_str(), granted.clone(), user.clone());
        Ok(back.approve(&sim, P, &q, approved, &extra))
    })
    .await
}
