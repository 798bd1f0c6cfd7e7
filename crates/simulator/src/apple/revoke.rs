//! `POST /apple/auth/revoke` (PROVIDERS.md §8.6): invalidates a refresh or access token.
//! Revoking a refresh token also forgets the user's consent, so the next authorization is a
//! first one again and posts `user` (Apple TN3194).

use super::client_secret::authenticate;
use super::read_form;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Debug, Default, Deserialize)]
struct RevokeParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    token: Option<String>,
}

pub async fn revoke(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Apple, Endpoint::Revoke, &headers);
    if let Some(response) = sim.faults.strike(Provider::Apple, Endpoint::Revoke).await {
        return sim.finish(record, "fault", response);
    }
    let refused = |code: &'static str| {
        (StatusCode::BAD_REQUEST, Json(json!({ "error": code }))).into_response()
    };
    let Some(params) = read_form::<RevokeParams>(&headers, &body) else {
        return sim.finish(record, "invalid_request", refused("invalid_request"));
    };
    let client = match authenticate(
        &sim,
        &headers,
        params.client_id.as_deref(),
        params.client_secret.as_deref(),
        &mut record,
    ) {
        Ok(client) => client,
        Err(code) => return sim.finish(record, code, refused(code)),
    };
    let Some(token) = params.token.as_deref() else {
        return sim.finish(record, "invalid_request", refused("invalid_request"));
    };
    // RFC 7009 §2.2: an unknown token (or another client's) is answered 200 all the same.
    if let Some(issued) = sim
        .apple
        .refresh_tokens
        .get(token)
        .filter(|issued| issued.client_id == client.client_id)
    {
        sim.apple.refresh_tokens.revoke(token);
        sim.apple
            .forget_authorization(&client.client_id, &issued.user.id);
    } else if sim.tokens.get(token).is_some_and(|issued| {
        issued.provider == Provider::Apple && issued.client_id == client.client_id
    }) {
        sim.tokens.revoke(token);
    }
    sim.finish(record, "ok", StatusCode::OK.into_response())
}
