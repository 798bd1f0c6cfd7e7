//! `POST /apple/auth/token`: the code exchange and the refresh grant as Apple answers them
//! (PROVIDERS.md §8.4, §8.6) — form body only, the ES256 client secret, single-use 5-minute
//! codes, PKCE once a challenge was sent, errors as HTTP 400 `{"error": …}`.

use super::client_secret::authenticate;
use super::id_token::{self, Subject};
use super::read_form;
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
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

#[derive(Debug, Default, Deserialize)]
struct TokenParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    grant_type: Option<String>,
    refresh_token: Option<String>,
}

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Apple, Endpoint::Token, &headers);
    if let Some(response) = sim.faults.strike(Provider::Apple, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    let Some(params) = read_form::<TokenParams>(&headers, &body) else {
        return sim.finish(record, "invalid_request", error("invalid_request"));
    };
    record.code_verifier_present = params.code_verifier.is_some();
    record.redirect_uri = params.redirect_uri.clone();
    match answer(&sim, &headers, &params, &mut record) {
        Ok(body) => sim.finish(record, "ok", Json(body).into_response()),
        Err(code) => sim.finish(record, code, error(code)),
    }
}

fn answer(
    sim: &SimState,
    headers: &HeaderMap,
    params: &TokenParams,
    record: &mut RequestRecord,
) -> Result<Value, &'static str> {
    let grant_type = params.grant_type.as_deref().ok_or("invalid_request")?;
    if !matches!(grant_type, "authorization_code" | "refresh_token") {
        return Err("unsupported_grant_type");
    }
    let client = authenticate(
        sim,
        headers,
        params.client_id.as_deref(),
        params.client_secret.as_deref(),
        record,
    )?;
    if grant_type == "refresh_token" {
        let token = params.refresh_token.as_deref().ok_or("invalid_request")?;
        let issued = sim
            .apple
            .refresh_tokens
            .get(token)
            .filter(|issued| issued.client_id == client.client_id)
            .ok_or("invalid_grant")?;
        // Apple's refresh grant sends no new refresh token (no rotation).
        return Ok(tokens(sim, &issued, None, false));
    }
    let code = params.code.as_deref().ok_or("invalid_request")?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.apple.codes.redeem(code).map_err(|_| "invalid_grant")?;
    if grant.client_id != client.client_id
        || params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str())
        || !pkce_verified(&grant, params.code_verifier.as_deref())
    {
        return Err("invalid_grant");
    }
    let issued = IssuedToken {
        provider: Provider::Apple,
        client_id: grant.client_id,
        scopes: grant.scopes,
        user: grant.user,
    };
    Ok(tokens(sim, &issued, grant.nonce.as_deref(), true))
}

/// With a stored (S256) challenge, the verifier must match it.
fn pkce_verified(grant: &Grant, verifier: Option<&str>) -> bool {
    match (&grant.code_challenge, verifier) {
        (None, _) => true,
        (Some(challenge), Some(verifier)) => s256_matches(verifier, challenge),
        (Some(_), None) => false,
    }
}

/// The token response: a new access token and id_token, and a refresh token when asked.
fn tokens(sim: &SimState, issued: &IssuedToken, nonce: Option<&str>, refresh: bool) -> Value {
    let access_token = sim.tokens.issue("a", issued.clone());
    let id_token = id_token::issue(
        sim,
        &Subject {
            client_id: &issued.client_id,
            user: &issued.user,
            scopes: &issued.scopes,
            nonce,
        },
    );
    let mut body = json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": 3600,
        "id_token": id_token,
    });
    if refresh {
        body["refresh_token"] = json!(sim.apple.refresh_tokens.issue("r", issued.clone()));
    }
    body
}

fn error(code: &'static str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": code }))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::SimUser;

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn grant(challenge: Option<&str>) -> Grant {
        Grant {
            provider: Provider::Apple,
            client_id: "com.example.web".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: challenge.map(Into::into),
            code_challenge_method: challenge.map(|_| "S256".into()),
            scopes: vec!["email".into()],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    #[test]
    fn a_stored_challenge_requires_its_verifier() {
        assert!(pkce_verified(&grant(Some(CHALLENGE)), Some(VERIFIER)));
        assert!(!pkce_verified(&grant(Some(CHALLENGE)), None));
        assert!(!pkce_verified(&grant(Some(CHALLENGE)), Some(CHALLENGE)));
        assert!(pkce_verified(&grant(None), None));
    }
}
