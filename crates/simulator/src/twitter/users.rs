//! `GET /twitter/2/users/me`: the authenticated user, wrapped in `{"data": …}`. Needs a
//! token with `tweet.read` and `users.read`; returns `id`, `name`, `username` plus the
//! requested `user.fields`, and `confirmed_email` only with the `users.email` scope and a
//! confirmed address (omitted otherwise, never an error).

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The `user.fields` the simulator knows; anything else is refused as X refuses it.
const KNOWN_FIELDS: [&str; 9] = [
    "id",
    "name",
    "username",
    "confirmed_email",
    "created_at",
    "description",
    "profile_image_url",
    "protected",
    "verified",
];

#[derive(Debug, Default, Deserialize)]
pub struct MeQuery {
    #[serde(rename = "user.fields")]
    user_fields: Option<String>,
}

pub async fn me(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    let record = RequestRecord::new(Provider::Twitter, Endpoint::Userinfo, &headers);
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
        .filter(|issued| issued.provider == Provider::Twitter);
    let Some(issued) = token else {
        return sim.finish(record, "unauthorized", problem(StatusCode::UNAUTHORIZED));
    };
    let scoped = ["tweet.read", "users.read"]
        .iter()
        .all(|scope| issued.has_any_scope(&[scope]));
    if !scoped {
        return sim.finish(record, "missing_scope", problem(StatusCode::FORBIDDEN));
    }
    match user(&issued, query.user_fields.as_deref().unwrap_or_default()) {
        Some(data) => sim.finish(record, "ok", Json(json!({ "data": data })).into_response()),
        None => sim.finish(record, "invalid_request", invalid_field()),
    }
}

/// The user's data; `None` when a requested field is not one X knows.
fn user(issued: &IssuedToken, fields: &str) -> Option<Value> {
    let user = &issued.user;
    let mut data = Map::new();
    data.insert("id".into(), json!(user.id));
    // Every X account has a display name; the handle stands in when none was seeded.
    data.insert(
        "name".into(),
        json!(user.name.as_deref().unwrap_or(&user.login)),
    );
    data.insert("username".into(), json!(user.login));
    for field in fields.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        if !KNOWN_FIELDS.contains(&field) {
            return None;
        }
        let value = match field {
            // Always there already.
            "id" | "name" | "username" => continue,
            "profile_image_url" => json!(user.avatar_url),
            "confirmed_email" if issued.has_any_scope(&["users.email"]) && user.email_verified => {
                json!(user.email)
            }
            "confirmed_email" => Value::Null,
            "created_at" => json!("2013-12-14T04:35:55.000Z"),
            "description" => json!(""),
            _ => json!(false),
        };
        if !value.is_null() {
            data.insert(field.to_owned(), value);
        }
    }
    Some(Value::Object(data))
}

fn problem(status: StatusCode) -> Response {
    let title = status.canonical_reason().unwrap_or("Error");
    let body =
        json!({"title": title, "type": "about:blank", "status": status.as_u16(), "detail": title});
    (status, Json(body)).into_response()
}

fn invalid_field() -> Response {
    let body = json!({
        "errors": [{"message": "The `user.fields` query parameter value is not one of the allowed values"}],
        "title": "Invalid Request",
        "detail": "One or more parameters to your request was invalid.",
        "type": "https://api.twitter.com/2/problems/invalid-request",
    });
    (StatusCode::BAD_REQUEST, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::SimUser;

    fn issued(scopes: &[&str], user: SimUser) -> IssuedToken {
        IssuedToken {
            provider: Provider::Twitter,
            client_id: "c".into(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            user,
        }
    }

    fn ada() -> SimUser {
        SimUser::new("2244994945", "ada_l")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
            .with_avatar_url("https://pbs.twimg.com/profile_images/1/a_normal.jpg")
    }

    #[test]
    fn the_default_fields_come_back_without_asking() {
        let data = user(&issued(&[], ada()), "").unwrap();
        assert_eq!(
            data,
            json!({"id": "2244994945", "name": "Ada Lovelace", "username": "ada_l"})
        );
    }

    #[test]
    fn confirmed_email_needs_the_scope_and_a_confirmed_address() {
        let fields = "profile_image_url,confirmed_email";
        let with = user(&issued(&["users.email"], ada()), fields).unwrap();
        assert_eq!(with["confirmed_email"], "ada@example.com");
        assert!(with["profile_image_url"].is_string());
        let without_scope = user(&issued(&["users.read"], ada()), fields).unwrap();
        assert!(without_scope.get("confirmed_email").is_none());
        let unconfirmed = ada().with_email("ada@example.com", false);
        let data = user(&issued(&["users.email"], unconfirmed), fields).unwrap();
        assert!(data.get("confirmed_email").is_none());
    }

    #[test]
    fn an_unknown_field_is_refused() {
        assert!(user(&issued(&[], ada()), "id,favourite_colour").is_none());
    }
}
