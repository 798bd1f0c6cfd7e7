//! `POST /microsoft/{tenant}/oauth2/v2.0/token`: the code exchange as Microsoft answers
//! it — form body only, client secret in the body or HTTP Basic, AADSTS error envelopes,
//! an `id_token` iff `openid`, a `refresh_token` iff `offline_access`.

use super::aadsts::Aadsts;
use super::{TenantPath, id_token};
use crate::client_auth::{PresentedClient, authenticate, presented};
use crate::codes::{Grant, RedeemError};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::pkce::s256_matches;
use crate::random;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use subtle::ConstantTimeEq;

const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;
const NOT_FORM: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_request",
    900144,
    "The request body must contain the following parameter: 'grant_type'.",
);
const NO_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_request",
    900144,
    "The request body must contain the following parameter: 'code'.",
);
const UNSUPPORTED_GRANT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "unsupported_grant_type",
    70003,
    "The app requested an unsupported grant type.",
);
const TENANT_NOT_FOUND: Aadsts =
    Aadsts::new(BAD_REQUEST, "invalid_request", 90002, "Tenant not found.");
const UNKNOWN_APP: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "unauthorized_client",
    700016,
    "Application with identifier was not found in the directory.",
);
const BAD_SECRET: Aadsts = Aadsts::new(
    StatusCode::UNAUTHORIZED,
    "invalid_client",
    7000215,
    "Invalid client secret provided.",
);
const BAD_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    70000,
    "The provided value for the 'code' parameter is not valid.",
);
const EXPIRED_CODE: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    70008,
    "The provided authorization code or refresh token has expired.",
);
const WRONG_REDIRECT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    50011,
    "The redirect URI specified in the request does not match the one of the authorization request.",
);
const NOT_IN_TENANT: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    50020,
    "User account does not exist in tenant.",
);
const PKCE_MISMATCH: Aadsts = Aadsts::new(
    BAD_REQUEST,
    "invalid_grant",
    501481,
    "The Code_Verifier does not match the code_challenge supplied in the authorization request.",
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

pub async fn token(
    State(sim): State<Arc<SimState>>,
    Path(tenant): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let record = RequestRecord::new(Provider::Microsoft, Endpoint::Token, &headers);
    let mut record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let Some(params) = parse(&headers, &body) else {
        return sim.finish(record, NOT_FORM.error, NOT_FORM.response());
    };
    record.code_verifier_present = params.code_verifier.is_some();
    record.redirect_uri = params.redirect_uri.clone();
    let client = presented(
        &headers,
        params.client_id.as_deref(),
        params.client_secret.as_deref(),
    );
    record.client_id = client.as_ref().map(|c| c.client_id.clone());
    record.client_auth = client.as_ref().map(|c| c.kind);
    match exchange(&sim, &tenant, client.as_ref(), &params) {
        Ok(answer) => sim.finish(record, "ok", Json(answer).into_response()),
        Err(refusal) => sim.finish(record, refusal.error, refusal.response()),
    }
}

/// Runs Microsoft's checks in order.
fn exchange(
    sim: &SimState,
    tenant: &str,
    client: Option<&PresentedClient>,
    params: &TokenParams,
) -> Result<Value, Aadsts> {
    let tenant = TenantPath::parse(tenant).ok_or(TENANT_NOT_FOUND)?;
    match params.grant_type.as_deref() {
        Some("authorization_code") => {}
        Some(_) => return Err(UNSUPPORTED_GRANT),
        None => return Err(NOT_FORM),
    }
    let client = client.ok_or(UNKNOWN_APP)?;
    if sim.client(Provider::Microsoft, &client.client_id).is_none() {
        return Err(UNKNOWN_APP);
    }
    let client = authenticate(&sim.clients, Provider::Microsoft, client).ok_or(BAD_SECRET)?;
    let code = params.code.as_deref().ok_or(NO_CODE)?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.codes.redeem(code).map_err(|error| match error {
        RedeemError::Expired => EXPIRED_CODE,
        RedeemError::Unknown => BAD_CODE,
    })?;
    if grant.provider != Provider::Microsoft || grant.client_id != client.client_id {
        return Err(BAD_CODE);
    }
    if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return Err(WRONG_REDIRECT);
    }
    if !tenant.admits(&grant.user.microsoft_account()) {
        return Err(NOT_IN_TENANT);
    }
    if !pkce_verified(&grant, params.code_verifier.as_deref()) {
        return Err(PKCE_MISMATCH);
    }
    Ok(answer(sim, grant))
}

/// With a stored challenge the verifier must match it (S256, or equality for `plain`).
fn pkce_verified(grant: &Grant, verifier: Option<&str>) -> bool {
    let Some(challenge) = &grant.code_challenge else {
        return true;
    };
    let Some(verifier) = verifier else {
        return false;
    };
    match grant.code_challenge_method.as_deref() {
        Some("S256") => s256_matches(verifier, challenge),
        _ => bool::from(verifier.as_bytes().ct_eq(challenge.as_bytes())),
    }
}

fn answer(sim: &SimState, grant: Grant) -> Value {
    let has = |scope: &str| grant.scopes.iter().any(|s| s == scope);
    // Graph access tokens are opaque to the app (personal accounts' start `EwA`).
    let access_token = sim.tokens.issue(
        "EwA",
        IssuedToken {
            provider: Provider::Microsoft,
            client_id: grant.client_id.clone(),
            scopes: grant.scopes.clone(),
            user: grant.user.clone(),
        },
    );
    let mut body = json!({
        "token_type": "Bearer",
        "scope": grant.scopes.join(" "),
        "expires_in": 3599,
        "ext_expires_in": 3599,
        "access_token": access_token,
    });
    if has("offline_access") {
        // Shape only: the simulator does not serve the refresh grant.
        body["refresh_token"] = json!(format!("M.C5_{}", random::base62(80)));
    }
    if has("openid") {
        body["id_token"] = json!(id_token::issue(sim, &grant));
    }
    body
}

/// Microsoft takes the token request form-encoded only.
fn parse(headers: &HeaderMap, body: &[u8]) -> Option<TokenParams> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    form.then(|| serde_urlencoded::from_bytes(body).ok())
        .flatten()
}
