//! `POST /twitter/2/oauth2/token`: the code exchange as X answers it — form bodies only,
//! HTTP Basic required of confidential clients, `client_id` in the body for public ones,
//! codes that live 30 seconds, a refresh token only with `offline.access`.

use crate::client_auth::{PresentedClient, authenticate, presented};
use crate::codes::Grant;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::{ClientAuthKind, RequestRecord};
use crate::pkce::s256_matches;
use crate::random;
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

/// An OAuth error: the HTTP status, the `error` code and X's `error_description`.
type Refusal = (StatusCode, &'static str, &'static str);

const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;
// The descriptions follow X's documented style; exact wording is unverified [M].
const NO_CLIENT_AUTH: Refusal = (
    StatusCode::UNAUTHORIZED,
    "unauthorized_client",
    "Missing valid authorization header",
);
const INVALID_CODE: Refusal = (
    BAD_REQUEST,
    "invalid_request",
    "Value passed for the authorization code was invalid.",
);

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Twitter, Endpoint::Token, &headers);
    if let Some(response) = sim.faults.strike(Provider::Twitter, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    let Some(params) = parse(&headers, &body) else {
        let refusal = (
            BAD_REQUEST,
            "invalid_request",
            "Request body must be form-encoded.",
        );
        return sim.finish(record, "not_form_encoded", error(refusal));
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

/// Runs X's checks in order.
fn exchange(
    sim: &SimState,
    client: Option<&PresentedClient>,
    params: &TokenParams,
) -> Result<Value, Refusal> {
    match params.grant_type.as_deref() {
        Some("authorization_code") => {}
        Some(_) => {
            return Err((
                BAD_REQUEST,
                "unsupported_grant_type",
                "Unsupported grant type.",
            ));
        }
        None => {
            return Err((
                BAD_REQUEST,
                "invalid_request",
                "Missing required parameter [grant_type].",
            ));
        }
    }
    let client_id = client_allowed(sim, client)?;
    let code = params.code.as_deref().ok_or((
        BAD_REQUEST,
        "invalid_request",
        "Missing required parameter [code].",
    ))?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.twitter_codes.redeem(code).map_err(|_| INVALID_CODE)?;
    if grant.provider != Provider::Twitter || grant.client_id != client_id {
        return Err(INVALID_CODE);
    }
    if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return Err((
            BAD_REQUEST,
            "invalid_request",
            "Value passed for the redirect uri did not match the uri of the authorization code.",
        ));
    }
    check_pkce(&grant, params.code_verifier.as_deref())?;
    Ok(answer(sim, grant))
}

/// Confidential clients (registered with a secret) must authenticate with HTTP Basic;
/// credentials in the body are refused. Public clients send only `client_id` in the body.
fn client_allowed(sim: &SimState, client: Option<&PresentedClient>) -> Result<String, Refusal> {
    let client = client.ok_or(NO_CLIENT_AUTH)?;
    let registered = sim
        .client(Provider::Twitter, &client.client_id)
        .ok_or(NO_CLIENT_AUTH)?;
    let allowed = if registered.client_secret.is_empty() {
        client.kind == ClientAuthKind::None
    } else {
        client.kind == ClientAuthKind::Basic
            && authenticate(&sim.clients, Provider::Twitter, client).is_some()
    };
    allowed
        .then(|| registered.client_id.clone())
        .ok_or(NO_CLIENT_AUTH)
}

/// PKCE is mandatory: the verifier must match the stored challenge.
fn check_pkce(grant: &Grant, verifier: Option<&str>) -> Result<(), Refusal> {
    let verifier = verifier.ok_or((
        BAD_REQUEST,
        "invalid_request",
        "Missing required parameter [code_verifier].",
    ))?;
    let challenge = grant.code_challenge.as_deref().unwrap_or_default();
    let matches = match grant.code_challenge_method.as_deref() {
        Some("S256") => s256_matches(verifier, challenge),
        _ => bool::from(verifier.as_bytes().ct_eq(challenge.as_bytes())),
    };
    matches.then_some(()).ok_or((
        BAD_REQUEST,
        "invalid_request",
        "Value passed for the code verifier did not match the code challenge.",
    ))
}

fn answer(sim: &SimState, grant: Grant) -> Value {
    let scope = grant.scopes.join(" ");
    let offline = grant.scopes.iter().any(|s| s == "offline.access");
    let access_token = sim.tokens.issue(
        "",
        IssuedToken {
            provider: Provider::Twitter,
            client_id: grant.client_id,
            scopes: grant.scopes,
            user: grant.user,
        },
    );
    let mut body = json!({
        "token_type": "bearer",
        "expires_in": 7200,
        "access_token": access_token,
        "scope": scope,
    });
    if offline {
        // Not redeemable here: the simulator does not implement the refresh grant.
        body["refresh_token"] = json!(random::base62(40));
    }
    body
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::SimUser;

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn grant(challenge: &str, method: &str) -> Grant {
        Grant {
            provider: Provider::Twitter,
            client_id: "c".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: Some(challenge.into()),
            code_challenge_method: Some(method.into()),
            scopes: vec!["users.read".into()],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    #[test]
    fn s256_and_plain_verifiers_are_checked() {
        assert_eq!(
            check_pkce(&grant(CHALLENGE, "S256"), Some(VERIFIER)),
            Ok(())
        );
        assert!(check_pkce(&grant(CHALLENGE, "S256"), Some(CHALLENGE)).is_err());
        assert_eq!(
            check_pkce(&grant(VERIFIER, "plain"), Some(VERIFIER)),
            Ok(())
        );
        assert!(check_pkce(&grant(CHALLENGE, "S256"), None).is_err());
    }
}
