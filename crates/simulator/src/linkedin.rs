//! The simulated LinkedIn, "Sign In with LinkedIn using OpenID Connect" (PROVIDERS.md §5,
//! §11.6), served under `/linkedin`.
//!
//! One prefix stands in for `www.linkedin.com/oauth` (discovery, authorize, token, keys)
//! and `api.linkedin.com` (userinfo). Its quirks: client credentials in the body only
//! (HTTP Basic is refused), no `nonce` in the id_token even when one was sent, the
//! id_token's `email_verified` a string and `locale` a string while userinfo has a boolean
//! and an object, and PKCE handled as the [`LinkedinKnobs`] say.

mod api;
mod authorize;
mod claims;
mod knobs;
mod token;

pub(crate) use knobs::set_knobs;
pub use knobs::{LinkedinKnobStore, LinkedinKnobs, LinkedinPkce};

use crate::state::SimState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// The endpoint URLs of the simulated LinkedIn, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedinEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    /// The `iss` of its id_tokens, `<base>/linkedin/oauth`.
    pub issuer: String,
}

impl LinkedinEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            discovery: format!("{base_url}/linkedin/oauth/.well-known/openid-configuration"),
            authorization: format!("{base_url}/linkedin/oauth/v2/authorization"),
            token: format!("{base_url}/linkedin/oauth/v2/accessToken"),
            userinfo: format!("{base_url}/linkedin/v2/userinfo"),
            jwks: format!("{base_url}/linkedin/oauth/openid/jwks"),
            issuer: issuer(base_url),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route(
            "/oauth/.well-known/openid-configuration",
            get(api::configuration),
        )
        .route("/oauth/v2/authorization", get(authorize::authorize))
        .route("/oauth/v2/accessToken", post(token::token))
        .route("/oauth/openid/jwks", get(api::jwks))
        .route("/v2/userinfo", get(api::userinfo))
}

fn issuer(base_url: &str) -> String {
    format!("{base_url}/linkedin/oauth")
}

/// LinkedIn's scopes are space-delimited in the authorization request.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}
