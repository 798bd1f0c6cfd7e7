//! `POST /github/login/oauth/access_token`: the code exchange, with GitHub's quirks —
//! errors as HTTP 200 with an `error` member, JSON only when asked for.

use crate::client_auth::{authenticate, presented};
use crate::codes::RedeemError;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::pkce::s256_matches;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

const ERROR_URI: &str = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

/// The token request; GitHub takes it form-encoded or as JSON.
#[derive(Debug, Default, Deserialize)]
struct TokenParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    grant_type: Option<String>,
}

pub async fn access_token(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut record = RequestRecord::new(Provider::Github, Endpoint::Token, &headers);
    let json = wants_json(&headers);
    if let Some(response) = sim.faults.strike(Provider::Github, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    let Some(params) = parse(&headers, &body) else {
        let response = (StatusCode::BAD_REQUEST, "malformed request body").into_response();
        return sim.finish(record, "malformed_body", response);
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

    let outcome = exchange(&sim, client.as_ref(), &params);
    let response = match &outcome {
        Ok(answer) => answer_with(json, answer),
        Err(error) => answer_with(
            json,
            &[
                ("error", (*error).to_owned()),
                ("error_description", describe(error).to_owned()),
                ("error_uri", ERROR_URI.to_owned()),
            ],
        ),
    };
    sim.finish(record, outcome.err().unwrap_or("ok"), response)
}

/// Runs GitHub's checks in order; `Err` is the OAuth error code to answer.
fn exchange(
    sim: &SimState,
    client: Option<&crate::client_auth::PresentedClient>,
    params: &TokenParams,
) -> Result<Vec<(&'static str, String)>, &'static str> {
    if params
        .grant_type
        .as_deref()
        .is_some_and(|g| g != "authorization_code")
    {
        return Err("unsupported_grant_type");
    }
    let client = client
        .and_then(|c| authenticate(&sim.clients, Provider::Github, c))
        .ok_or("incorrect_client_credentials")?;
    let code = params.code.as_deref().ok_or("bad_verification_code")?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.codes.redeem(code).map_err(|e| match e {
        RedeemError::Unknown | RedeemError::Expired => "bad_verification_code",
    })?;
    if grant.provider != Provider::Github || grant.client_id != client.client_id {
        return Err("bad_verification_code");
    }
    if params
        .redirect_uri
        .as_deref()
        .is_some_and(|r| r != grant.redirect_uri)
    {
        return Err("redirect_uri_mismatch");
    }
    if let Some(challenge) = &grant.code_challenge {
        let verified = params
            .code_verifier
            .as_deref()
            .is_some_and(|verifier| s256_matches(verifier, challenge));
        if !verified {
            return Err("bad_verification_code");
        }
    }
    let scope = grant.scopes.join(",");
    let token = sim.tokens.issue(
        "gho_",
        IssuedToken {
            provider: Provider::Github,
            client_id: grant.client_id,
            scopes: grant.scopes,
            user: grant.user,
        },
    );
    Ok(vec![
        ("access_token", token),
        ("token_type", "bearer".to_owned()),
        ("scope", scope),
    ])
}

fn describe(error: &str) -> &'static str {
    match error {
        "incorrect_client_credentials" => {
            "The client_id and/or client_secret passed are incorrect."
        }
        "redirect_uri_mismatch" => {
            "The redirect_uri MUST match the registered callback URL for this application."
        }
        "unsupported_grant_type" => "The grant type is not supported.",
        _ => "The code passed is incorrect or expired.",
    }
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"))
}

fn parse(headers: &HeaderMap, body: &[u8]) -> Option<TokenParams> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("application/json") {
        serde_json::from_slice(body).ok()
    } else {
        serde_urlencoded::from_bytes(body).ok()
    }
}

/// HTTP 200 always; JSON if asked for, else `application/x-www-form-urlencoded`.
fn answer_with(json: bool, pairs: &[(&str, String)]) -> Response {
    if json {
        let object: serde_json::Map<String, serde_json::Value> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone().into()))
            .collect();
        (StatusCode::OK, axum::Json(object)).into_response()
    } else {
        let body = serde_urlencoded::to_string(pairs).unwrap_or_default();
        (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/x-www-form-urlencoded")],
            body,
        )
            .into_response()
    }
}
