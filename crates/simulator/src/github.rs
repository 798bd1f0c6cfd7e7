//! The simulated GitHub (PROVIDERS.md §2, §11.3), served under `/github`.
//!
//! `login/oauth/*` imitates `github.com`, `api/*` imitates `api.github.com`.

mod api;
mod authorize;
pub(crate) mod redirect;
mod token;

use crate::state::SimState;
use axum::Router;
use axum::routing::{delete, get, post};
use std::sync::Arc;

/// The endpoint URLs of the simulated GitHub, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub emails: String,
}

impl GithubEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            authorization: format!("{base_url}/github/login/oauth/authorize"),
            token: format!("{base_url}/github/login/oauth/access_token"),
            user: format!("{base_url}/github/api/user"),
            emails: format!("{base_url}/github/api/user/emails"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/login/oauth/authorize", get(authorize::authorize))
        .route("/login/oauth/access_token", post(token::access_token))
        .route("/api/user", get(api::user))
        .route("/api/user/emails", get(api::emails))
        .route("/api/applications/{client_id}/token", delete(api::revoke))
}
