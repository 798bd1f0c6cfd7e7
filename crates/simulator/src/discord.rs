//! The simulated Discord (PROVIDERS.md §6, §11.7), served under `/discord`.
//!
//! `oauth2/authorize` imitates `discord.com/oauth2/authorize` (also under `api/`),
//! `api/oauth2/token` the token endpoint and `api/users/@me` (also `api/v10/users/@me`)
//! the current-user endpoint. Discord's profile fields beyond [`crate::SimUser`]'s come
//! from its [`DiscordSeed`].

mod authorize;
mod seed;
mod token;
mod user;

pub use seed::DiscordSeed;

use crate::state::SimState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;

/// The endpoint URLs of the simulated Discord, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
}

impl DiscordEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        Self {
            authorization: format!("{base_url}/discord/oauth2/authorize"),
            token: format!("{base_url}/discord/api/oauth2/token"),
            user: format!("{base_url}/discord/api/users/@me"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/oauth2/authorize", get(authorize::authorize))
        .route("/api/oauth2/authorize", get(authorize::authorize))
        .route("/api/oauth2/token", post(token::token))
        .route("/api/users/@me", get(user::current_user))
        .route("/api/v10/users/@me", get(user::current_user))
}

/// Discord's scopes are space-delimited.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}
