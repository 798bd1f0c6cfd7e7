//! `GET /google/v1/userinfo` (and `/oauth2/v3/userinfo`): the profile for a Bearer token.

use super::id_token::profile_claims;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

pub async fn userinfo(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Google, Endpoint::Userinfo, &headers);
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
        .filter(|issued| issued.provider == Provider::Google);
    let Some(issued) = token else {
        return sim.finish(record, "invalid_token", unauthorized());
    };
    let mut body = json!({ "sub": issued.user.id });
    if let Some(object) = body.as_object_mut() {
        object.extend(profile_claims(&issued.user, &issued.scopes));
    }
    sim.finish(record, "ok", Json(body).into_response())
}

/// Google's answer to a missing, unknown or revoked token.
fn unauthorized() -> Response {
    let body: Value = json!({
        "error": "invalid_request",
        "error_description": "Invalid Credentials"
    });
    (
        StatusCode::UNAUTHORIZED,
        [(
            header::WWW_AUTHENTICATE,
            "Bearer realm=\"simulator\", error=\"invalid_token\"",
        )],
        Json(body),
    )
        .into_response()
}
