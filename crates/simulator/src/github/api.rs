//! The GitHub REST API subset: `GET /user`, `GET /user/emails`, and token revocation.

use crate::client_auth::{authenticate, presented};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

const DOCS: &str = "https://docs.github.com/rest";

pub async fn user(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Github, Endpoint::Userinfo, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    match authorized(&sim, &headers) {
        Ok(token) => match profile(&token.user) {
            Some(body) => sim.finish(record, "ok", Json(body).into_response()),
            None => {
                let response = (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "seeded GitHub user id is not numeric",
                )
                    .into_response();
                sim.finish(record, "bad_seed", response)
            }
        },
        Err(refusal) => sim.finish(record, refusal.outcome(), refusal.response()),
    }
}

pub async fn emails(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Github, Endpoint::Emails, &headers);
    if let Some(response) = sim.faults.strike(Provider::Github, Endpoint::Emails).await {
        return sim.finish(record, "fault", response);
    }
    match authorized(&sim, &headers) {
        // Listing emails needs `user:email` or `user`; GitHub hides the resource otherwise.
        Ok(token) if !token.has_any_scope(&["user:email", "user"]) => sim.finish(
            record,
            "missing_scope",
            message(StatusCode::NOT_FOUND, "Not Found"),
        ),
        Ok(token) => sim.finish(
            record,
            "ok",
            Json(token.user.github_emails()).into_response(),
        ),
        Err(refusal) => sim.finish(record, refusal.outcome(), refusal.response()),
    }
}

/// `DELETE /applications/{client_id}/token`: Basic client credentials, JSON `{"access_token"}`.
pub async fn revoke(
    State(sim): State<Arc<SimState>>,
    Path(client_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let record = RequestRecord::new(Provider::Github, Endpoint::Revoke, &headers);
    if let Some(response) = sim.faults.strike(Provider::Github, Endpoint::Revoke).await {
        return sim.finish(record, "fault", response);
    }
    let client = presented(&headers, None, None)
        .filter(|c| c.client_id == client_id)
        .and_then(|c| authenticate(&sim.clients, Provider::Github, &c).cloned());
    if client.is_none() {
        return sim.finish(
            record,
            "bad_client",
            message(StatusCode::NOT_FOUND, "Not Found"),
        );
    }
    let token = serde_json::from_slice::<Value>(&body).ok().and_then(|v| {
        v.get("access_token")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let Some(token) = token else {
        return sim.finish(
            record,
            "invalid_body",
            message(StatusCode::UNPROCESSABLE_ENTITY, "Invalid request."),
        );
    };
    let owned = sim
        .tokens
        .get(&token)
        .is_some_and(|t| t.client_id == client_id);
    if owned && sim.tokens.revoke(&token) {
        sim.finish(record, "ok", StatusCode::NO_CONTENT.into_response())
    } else {
        sim.finish(
            record,
            "unknown_token",
            message(StatusCode::NOT_FOUND, "Not Found"),
        )
    }
}

/// Why the API gate refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    MissingUserAgent,
    NoCredentials,
    BadCredentials,
}

impl Refusal {
    fn outcome(self) -> &'static str {
        match self {
            Self::MissingUserAgent => "missing_user_agent",
            Self::NoCredentials => "no_credentials",
            Self::BadCredentials => "bad_credentials",
        }
    }

    fn response(self) -> Response {
        match self {
            Self::MissingUserAgent => {
                let body = "Request forbidden by administrative rules. Please make sure your request has a User-Agent header.";
                (StatusCode::FORBIDDEN, body).into_response()
            }
            Self::NoCredentials => message(StatusCode::UNAUTHORIZED, "Requires authentication"),
            Self::BadCredentials => message(StatusCode::UNAUTHORIZED, "Bad credentials"),
        }
    }
}

/// GitHub's API gate: a User-Agent, then a live token as `Bearer` or legacy `token`.
fn authorized(sim: &SimState, headers: &HeaderMap) -> Result<IssuedToken, Refusal> {
    if !headers.contains_key(header::USER_AGENT) {
        return Err(Refusal::MissingUserAgent);
    }
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let (scheme, token) = value
        .and_then(|v| v.split_once(' '))
        .ok_or(Refusal::NoCredentials)?;
    let scheme_ok = scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("token");
    match sim.tokens.get(token.trim()) {
        Some(issued) if scheme_ok && issued.provider == Provider::Github => Ok(issued),
        _ => Err(Refusal::BadCredentials),
    }
}

/// The `/user` body; `None` when the seeded id cannot be GitHub's integer id.
fn profile(user: &SimUser) -> Option<Value> {
    let id: u64 = user.id.parse().ok()?;
    Some(json!({
        "login": user.login,
        "id": id,
        "node_id": format!("U_sim{id}"),
        "avatar_url": user.avatar_url,
        "html_url": format!("https://github.com/{}", user.login),
        "type": "User",
        "name": user.name,
        "email": user.public_email,
        "created_at": "2011-01-25T18:44:36Z",
    }))
}

fn message(status: StatusCode, text: &str) -> Response {
    (
        status,
        Json(json!({"message": text, "documentation_url": DOCS, "status": status.as_str()})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_shows_only_the_public_email_and_an_integer_id() {
        let user = SimUser::new("583231", "ada").with_email("ada@example.com", true);
        let body = profile(&user).unwrap();
        assert_eq!(body["id"], json!(583231));
        assert_eq!(body["email"], Value::Null);
        let public = profile(&user.with_public_email("ada@example.com")).unwrap();
        assert_eq!(public["email"], json!("ada@example.com"));
    }

    #[test]
    fn a_non_numeric_seed_id_has_no_github_profile() {
        assert!(profile(&SimUser::new("abc", "ada")).is_none());
    }
}
