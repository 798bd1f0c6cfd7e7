//! The simulated Discord, served under `/discord`: `oauth2/authorize` imitates
//! `discord.com/oauth2/authorize` (also under `api/`), `api/oauth2/token` the token
//! endpoint and `api/users/@me` (also `api/v10/users/@me`) the current-user endpoint.
//! Its manners are its dialect's; its hooks write the user object, whose fields beyond
//! [`crate::SimUser`]'s come from its [`DiscordSeed`].

pub(crate) mod seed;

pub use seed::DiscordSeed;

use crate::hooks::{Cx, Document, SimHooks};
use crate::paths::EndpointSet;
use crate::tokens::IssuedToken;
use serde_json::json;

/// The endpoint URLs of the simulated Discord (and X), to put in a provider's endpoint
/// overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub revocation: String,
}

impl From<EndpointSet> for DiscordEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            authorization: e.authorization,
            token: e.token,
            user: e.userinfo.unwrap_or_default(),
            revocation: e.revocation.unwrap_or_default(),
        }
    }
}

pub struct Discord;

impl SimHooks for Discord {
    /// The user object; `email` and `verified` only with the `email` scope.
    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let user = &issued.user;
        let seed = user.discord_seed();
        let mut body = json!({
            "id": user.id,
            "username": user.login,
            "discriminator": seed.discriminator,
            "global_name": user.name,
            "avatar": seed.avatar,
            "mfa_enabled": false,
            "banner": null,
            "accent_color": null,
            "locale": "en-US",
            "flags": 0,
            "premium_type": 0,
            "public_flags": 0,
            "avatar_decoration_data": null,
        });
        if issued.has_any_scope(&["email"]) {
            body["email"] = json!(user.email);
            body["verified"] = json!(user.email_verified);
        }
        Ok(body)
    }
}
