//! The simulated Google (PROVIDERS.md §1, §11.2), served under `/google`.
//!
//! One prefix stands in for Google's several hosts: `accounts.google.com` (discovery,
//! authorize), `oauth2.googleapis.com` (token), `openidconnect.googleapis.com` (userinfo)
//! and `www.googleapis.com` (certs). id_tokens are RS256 with a `kid`, signed with the
//! fixture keys of [`crate::signing`].

mod authorize;
mod discovery;
mod id_token;
mod token;
mod userinfo;

use crate::state::SimState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;

/// The endpoint URLs of the simulated Google, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    /// The `iss` its id_tokens carry (`<base>/google` unless configured).
    pub issuer: String,
}

impl GoogleEndpoints {
    pub(crate) fn under(base_url: &str, issuer: &str) -> Self {
        Self {
            discovery: format!("{base_url}/google/.well-known/openid-configuration"),
            authorization: format!("{base_url}/google/o/oauth2/v2/auth"),
            token: format!("{base_url}/google/token"),
            userinfo: format!("{base_url}/google/v1/userinfo"),
            jwks: format!("{base_url}/google/oauth2/v3/certs"),
            issuer: issuer.to_owned(),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route(
            "/.well-known/openid-configuration",
            get(discovery::configuration),
        )
        .route("/o/oauth2/v2/auth", get(authorize::authorize))
        .route("/token", post(token::token))
        .route("/v1/userinfo", get(userinfo::userinfo))
        .route("/oauth2/v3/userinfo", get(userinfo::userinfo))
        .route("/oauth2/v3/certs", get(discovery::certs))
}

/// Google's scopes are space-delimited.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
