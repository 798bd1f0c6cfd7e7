//! The simulated Sign in with Apple (PROVIDERS.md §8, §11.9), served under `/apple`.
//!
//! What it checks is what makes Apple different: the authorize answer is an auto-submitting
//! HTML form (`response_mode=form_post`, mandatory once a scope is asked for) carrying the
//! `user` JSON only on a user's first authorization for a client; the token endpoint takes
//! `client_secret_post` only, and the secret must be an ES256 JWT signed with the key of a
//! seeded team ([`AppleTeam`]); there is no userinfo endpoint, everything is in the RS256
//! id_token (signed with [`crate::signing`]'s keys), whose `email_verified` and
//! `is_private_email` come as strings or booleans ([`AppleKnobs`]).
//!
//! Rust tests "submit" the form with [`AppleFormPost::parse`] (also
//! `SimulatorHandle::apple_form_post`): it yields the form's action and fields from the page.

mod authorize;
mod client_secret;
mod discovery;
mod form_post;
mod id_token;
mod knobs;
mod revoke;
mod state;
mod team;
mod token;

pub use form_post::AppleFormPost;
pub use knobs::{AppleKnobs, ClaimStyle};
pub(crate) use state::AppleState;
pub use team::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM, APPLE_TEST_TEAM_ID, AppleTeam,
};

use crate::state::SimState;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// The `iss` of Apple's id_tokens, and the `aud` a client secret must name.
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";

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
        .route(
            "/.well-known/openid-configuration",
            get(discovery::configuration),
        )
        .route("/auth/authorize", get(authorize::authorize))
        .route("/auth/token", post(token::token))
        .route("/auth/revoke", post(revoke::revoke))
        .route("/auth/keys", get(discovery::keys))
}

/// `POST /_control/apple_knobs`: replaces the Apple knobs.
pub(crate) async fn set_knobs(
    State(sim): State<Arc<SimState>>,
    Json(knobs): Json<AppleKnobs>,
) -> StatusCode {
    sim.apple.set_knobs(knobs);
    StatusCode::NO_CONTENT
}

/// Apple's scopes are space-delimited (`name email`).
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A form-urlencoded request body (Apple takes nothing else); `None` for any other body.
fn read_form<T: serde::de::DeserializeOwned>(headers: &HeaderMap, body: &[u8]) -> Option<T> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    form.then(|| serde_urlencoded::from_bytes(body).ok())
        .flatten()
}

/// Seconds since the epoch, for JWT times.
fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}
