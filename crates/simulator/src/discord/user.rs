//! `GET /discord/api/users/@me`: the current user for a Bearer token with `identify`;
//! `email` and `verified` only when the token also has the `email` scope.

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use crate::users::SimUser;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

pub async fn current_user(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Discord, Endpoint::Userinfo, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .and_then(|(_, token)| sim.tokens.get(token.trim()))
        .filter(|issued| issued.provider == Provider::Discord);
    let Some(issued) = token else {
        return sim.finish(record, "invalid_token", unauthorized());
    };
    // Discord answers a token without `identify` like a missing one.
    if !issued.has_any_scope(&["identify"]) {
        return sim.finish(record, "missing_scope", unauthorized());
    }
    let body = profile(&issued.user, issued.has_any_scope(&["email"]));
    sim.finish(record, "ok", Json(body).into_response())
}

/// The user object (PROVIDERS.md §6.5): `id` a string snowflake, `global_name` the
/// display name, `avatar` a hash or null.
fn profile(user: &SimUser, email_scope: bool) -> Value {
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
    if email_scope {
        body["email"] = json!(user.email);
        body["verified"] = json!(user.email_verified);
    }
    body
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        Json(json!({"message": "401: Unauthorized", "code": 0})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discord::DiscordSeed;

    fn ada() -> SimUser {
        SimUser::new("1047859021147058176", "ada.lovelace")
            .with_name("Ada")
            .with_email("ada@example.com", true)
    }

    #[test]
    fn email_and_verified_appear_only_with_the_email_scope() {
        let with = profile(&ada(), true);
        assert_eq!(with["email"], "ada@example.com");
        assert_eq!(with["verified"], true);
        let without = profile(&ada(), false);
        assert!(without.get("email").is_none() && without.get("verified").is_none());
    }

    #[test]
    fn an_unseeded_user_is_migrated_without_an_avatar() {
        let body = profile(&ada(), false);
        assert_eq!(body["id"], "1047859021147058176");
        assert_eq!(body["discriminator"], "0");
        assert_eq!(body["avatar"], Value::Null);
        assert_eq!(body["global_name"], "Ada");
    }

    #[test]
    fn a_legacy_seed_shows_its_discriminator_and_avatar() {
        let user = SimUser::new("80351110224678912", "nelly").with_discord(
            DiscordSeed::legacy("1337").with_avatar("a_1269e74af4df7417b13759eae50c83dc"),
        );
        let body = profile(&user, true);
        assert_eq!(body["discriminator"], "1337");
        assert_eq!(body["avatar"], "a_1269e74af4df7417b13759eae50c83dc");
        assert_eq!(body["global_name"], Value::Null);
        assert_eq!(body["email"], Value::Null);
    }
}
