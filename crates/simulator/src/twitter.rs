//! The simulated X (Twitter) (PROVIDERS.md §7, §11.8), served under `/twitter`.
//!
//! `i/oauth2/authorize` imitates `x.com`; `2/oauth2/token` and `2/users/me` imitate
//! `api.x.com`. X's codes live in their own store: they expire after 30 seconds
//! ([`crate::SimulatorConfig::twitter_code_ttl`]), not after the common code TTL.

mod authorize;
mod token;
mod users;

use crate::state::SimState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;

/// The endpoint URLs of the simulated X, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwitterEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
}

impl TwitterEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            authorization: format!("{base_url}/twitter/i/oauth2/authorize"),
            token: format!("{base_url}/twitter/2/oauth2/token"),
            user: format!("{base_url}/twitter/2/users/me"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/i/oauth2/authorize", get(authorize::authorize))
        .route("/2/oauth2/token", post(token::token))
        .route("/2/users/me", get(users::me))
}

/// X's scopes are space-delimited.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
