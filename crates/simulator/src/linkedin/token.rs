//! `POST /linkedin/oauth/v2/accessToken`: the code exchange as LinkedIn answers it —
//! client credentials in the form body only (HTTP Basic alone is `401 invalid_client`),
//! a bad code as `400 invalid_request`, PKCE per [`LinkedinPkce`], an `id_token` iff `openid`.

use super::claims::issue_id_token;
use super::knobs::LinkedinPkce;
use crate::client_auth::{PresentedClient, authenticate, presented};
use crate::codes::Grant;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::{ClientAuthKind, RequestRecord};
use crate::pkce::s256_matches;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// An OAuth error: HTTP status, `error` and `error_description`.
type Refusal = (StatusCode, &'static str, &'static str);

const BAD_CODE: Refusal = (
    StatusCode::BAD_REQUEST,
    "invalid_request",
    "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.",
);
const BAD_CLIENT: Refusal = (
    StatusCode::UNAUTHORIZED,
    "invalid_client",
    "Client authentication failed",
);
const PKCE_REFUSED: Refusal = (
    StatusCode::BAD_REQUEST,
    "invalid_request",
    "Unable to retrieve access token: code_verifier is not supported for this application",
);

#[derive(Debug, Default, Deserialize)]
struct TokenParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    grant_type: Option<String>,
}

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Linkedin, Endpoint::Token, &headers);
    if let Some(response) = sim.faults.strike(Provider::Linkedin, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    let Some(params) = parse(&headers, &body) else {
        let refusal = (
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "A required parameter is missing or the body is not a form",
        );
        return sim.finish(record, refusal.1, error(refusal));
    };
    record.code_verifier_present = params.code_verifier.is_some();
    record.redirect_uri = params.redirect_uri.clone();
    // Only the body counts; the Authorization header is read for the log alone.
    let body_client = presented(
        &HeaderMap::new(),
        params.client_id.as_deref(),
        params.client_secret.as_deref(),
    );
    let header_client = presented(&headers, None, None);
    let shown = body_client.as_ref().or(header_client.as_ref());
    record.client_id = shown.map(|c| c.client_id.clone());
    record.client_auth = match (&body_client, &header_client) {
        (Some(body), _) => Some(body.kind),
        (None, Some(_)) => Some(ClientAuthKind::Basic),
        (None, None) => None,
    };
    match exchange(&sim, body_client.as_ref(), &params) {
        Ok(answer) => sim.finish(record, "ok", Json(answer).into_response()),
        Err(refusal) => sim.finish(record, refusal.1, error(refusal)),
    }
}

/// Runs LinkedIn's checks in order.
fn exchange(
    sim: &SimState,
    client: Option<&PresentedClient>,
    params: &TokenParams,
) -> Result<Value, Refusal> {
    match params.grant_type.as_deref() {
        Some("authorization_code") => {}
        Some(_) => {
            return Err((
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "Grant type is not supported",
            ));
        }
        None => {
            return Err((
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "A required parameter \"grant_type\" is missing",
            ));
        }
    }
    let client = client
        .and_then(|c| authenticate(&sim.clients, Provider::Linkedin, c))
        .ok_or(BAD_CLIENT)?;
    let pkce = sim.linkedin_knobs.get().pkce;
    if pkce == LinkedinPkce::Reject && params.code_verifier.is_some() {
        return Err(PKCE_REFUSED);
    }
    let code = params.code.as_deref().ok_or(BAD_CODE)?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.codes.redeem(code).map_err(|_| BAD_CODE)?;
    if grant.provider != Provider::Linkedin || grant.client_id != client.client_id {
        return Err(BAD_CODE);
    }
    if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return Err(BAD_CODE);
    }
    if pkce == LinkedinPkce::Enforce && !pkce_verified(&grant, params.code_verifier.as_deref()) {
        return Err(BAD_CODE);
    }
    Ok(answer(sim, &grant))
}

/// A native app's PKCE: the S256 challenge stored at authorize, and a matching verifier.
fn pkce_verified(grant: &Grant, verifier: Option<&str>) -> bool {
    match (grant.code_challenge.as_deref(), verifier) {
        (Some(challenge), Some(verifier)) => s256_matches(verifier, challenge),
        _ => false,
    }
}

fn answer(sim: &SimState, grant: &Grant) -> Value {
    let access_token = sim.tokens.issue(
        "AQV",
        IssuedToken {
            provider: Provider::Linkedin,
            client_id: grant.client_id.clone(),
            scopes: grant.scopes.clone(),
            user: grant.user.clone(),
        },
    );
    let mut body = json!({
        "access_token": access_token,
        // Sixty days; refresh tokens are for approved partners only.
        "expires_in": 5_184_000,
        // LinkedIn lists the granted scopes comma-separated.
        "scope": grant.scopes.join(","),
        "token_type": "Bearer",
    });
    if grant.scopes.iter().any(|s| s == "openid") {
        body["id_token"] = json!(issue_id_token(sim, grant));
    }
    body
}

/// LinkedIn takes the token request form-encoded only.
fn parse(headers: &HeaderMap, body: &[u8]) -> Option<TokenParams> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    form.then(|| serde_urlencoded::from_bytes(body).ok())
        .flatten()
}

fn error((status, code, description): Refusal) -> Response {
    (
        status,
        Json(json!({"error": code, "error_description": description})),
    )
        .into_response()
}
