//! The simulated X (Twitter), served under `/twitter`: `i/oauth2/authorize` imitates
//! `x.com`; `2/oauth2/token` and `2/users/me` imitate `api.x.com`. Its manners (PKCE
//! mandatory, a short `state`, HTTP Basic of confidential clients, 30-second codes) are its
//! dialect's; its hooks write the user in `{"data": …}` with the requested `user.fields`.

use crate::flow::Refusal;
use crate::hooks::{Cx, Document, SimHooks};
use crate::tokens::IssuedToken;
use axum::Json;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The endpoint URLs of the simulated X: the members of Discord's.
pub type TwitterEndpoints = crate::discord::DiscordEndpoints;

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
struct MeQuery {
    #[serde(rename = "user.fields")]
    user_fields: Option<String>,
}

pub struct Twitter;

impl SimHooks for Twitter {
    /// `id`, `name`, `username` plus the requested `user.fields`; `confirmed_email` only
    /// with `users.email` and a confirmed address (omitted otherwise).
    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, query: Option<&str>) -> Document {
        let query: MeQuery =
            serde_urlencoded::from_str(query.unwrap_or_default()).unwrap_or_default();
        let fields = query.user_fields.unwrap_or_default();
        let data = user(issued, &fields).ok_or_else(|| {
            let body = json!({
                "errors": [{"message": "The `user.fields` query parameter value is not one of the allowed values"}],
                "title": "Invalid Request",
                "detail": "One or more parameters to your request was invalid.",
                "type": "https://api.twitter.com/2/problems/invalid-request",
            });
            Refusal::new("invalid_request", (StatusCode::BAD_REQUEST, Json(body)))
        })?;
        Ok(json!({ "data": data }))
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
