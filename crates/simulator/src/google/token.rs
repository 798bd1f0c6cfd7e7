//! `POST /google/token`: the code exchange as Google answers it — JSON always, errors with
//! HTTP 400 (`invalid_grant`...) or 401 (`invalid_client`), an `id_token` iff `openid`.

use super::id_token;
use crate::client_auth::{PresentedClient, authenticate, presented};
use crate::codes::Grant;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
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
use subtle::ConstantTimeEq;

#[derive(Debug, Default, Deserialize)]
struct TokenParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    grant_type: Option<String>,
}

/// An OAuth error: the HTTP status and the `error` code.
type Refusal = (StatusCode, &'static str);

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Google, Endpoint::Token, &headers);
    if let Some(response) = sim.faults.strike(Provider::Google, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    let Some(params) = parse(&headers, &body) else {
        let refusal = (StatusCode::BAD_REQUEST, "invalid_request");
        return sim.finish(record, refusal.1, error(refusal));
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
    match exchange(&sim, client.as_ref(), &params) {
        Ok(answer) => sim.finish(record, "ok", Json(answer).into_response()),
        Err(refusal) => sim.finish(record, refusal.1, error(refusal)),
    }
}

/// Runs Google's checks in order.
fn exchange(
    sim: &SimState,
    client: Option<&PresentedClient>,
    params: &TokenParams,
) -> Result<Value, Refusal> {
    const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;
    match params.grant_type.as_deref() {
        Some("authorization_code") => {}
        Some(_) => return Err((BAD_REQUEST, "unsupported_grant_type")),
        None => return Err((BAD_REQUEST, "invalid_request")),
    }
    // Neither Basic nor body credentials, or wrong ones: 401 `invalid_client`.
    let client = client
        .and_then(|c| authenticate(&sim.clients, Provider::Google, c))
        .ok_or((StatusCode::UNAUTHORIZED, "invalid_client"))?;
    let code = params
        .code
        .as_deref()
        .ok_or((BAD_REQUEST, "invalid_request"))?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim
        .codes
        .redeem(code)
        .map_err(|_| (BAD_REQUEST, "invalid_grant"))?;
    if grant.provider != Provider::Google || grant.client_id != client.client_id {
        return Err((BAD_REQUEST, "invalid_grant"));
    }
    if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return Err((BAD_REQUEST, "redirect_uri_mismatch"));
    }
    if !pkce_verified(&grant, params.code_verifier.as_deref()) {
        return Err((BAD_REQUEST, "invalid_grant"));
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
    let scope = grant.scopes.join(" ");
    let openid = grant.scopes.iter().any(|s| s == "openid");
    let access_token = sim.tokens.issue(
        "ya29.",
        IssuedToken {
            provider: Provider::Google,
            client_id: grant.client_id.clone(),
            scopes: grant.scopes.clone(),
            user: grant.user.clone(),
        },
    );
    let mut body = json!({
        "access_token": access_token,
        "expires_in": 3599,
        "token_type": "Bearer",
        "scope": scope,
    });
    if openid {
        body["id_token"] = json!(id_token::issue(sim, &grant, &access_token));
    }
    body
}

/// Google takes the token request form-encoded only.
fn parse(headers: &HeaderMap, body: &[u8]) -> Option<TokenParams> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    form.then(|| serde_urlencoded::from_bytes(body).ok())
        .flatten()
}

fn error((status, code): Refusal) -> Response {
    let description = match code {
        "invalid_client" => "Unauthorized",
        "invalid_grant" => "Bad Request",
        "redirect_uri_mismatch" => "Bad Request",
        "unsupported_grant_type" => "Invalid grant_type",
        _ => "Invalid request",
    };
    (
        status,
        Json(json!({"error": code, "error_description": description})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::SimUser;

    fn grant(challenge: Option<&str>, method: Option<&str>) -> Grant {
        Grant {
            provider: Provider::Google,
            client_id: "c".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: challenge.map(Into::into),
            code_challenge_method: method.map(Into::into),
            scopes: vec!["openid".into()],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    #[test]
    fn s256_and_plain_challenges_are_verified() {
        assert!(pkce_verified(
            &grant(Some(CHALLENGE), Some("S256")),
            Some(VERIFIER)
        ));
        assert!(!pkce_verified(
            &grant(Some(CHALLENGE), Some("S256")),
            Some(CHALLENGE)
        ));
        assert!(pkce_verified(
            &grant(Some(VERIFIER), Some("plain")),
            Some(VERIFIER)
        ));
        assert!(pkce_verified(&grant(Some(VERIFIER), None), Some(VERIFIER)));
        assert!(!pkce_verified(&grant(Some(VERIFIER), None), None));
        assert!(pkce_verified(&grant(None, None), None));
    }
}
