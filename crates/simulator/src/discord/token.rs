//! `POST /discord/api/oauth2/token`: the code exchange as Discord answers it — form bodies
//! only, client credentials as Basic or in the body, Discord's strict `code_verifier` rules.

use crate::client_auth::{PresentedClient, authenticate, presented};
use crate::codes::Grant;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::pkce::{is_valid_verifier, s256_matches};
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

#[derive(Debug, Default, Deserialize)]
struct TokenParams {
    client_id: Option<String>,
    client_secret: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    grant_type: Option<String>,
}

/// An OAuth error: the HTTP status, the `error` code and Discord's `error_description`.
type Refusal = (StatusCode, &'static str, &'static str);

const INVALID_VERIFIER: Refusal = (
    StatusCode::BAD_REQUEST,
    "invalid_request",
    "Invalid \"code_verifier\"",
);

pub async fn token(State(sim): State<Arc<SimState>>, headers: HeaderMap, body: Bytes) -> Response {
    let mut record = RequestRecord::new(Provider::Discord, Endpoint::Token, &headers);
    if let Some(response) = sim.faults.strike(Provider::Discord, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    // Discord reads form bodies only; a JSON body has no `grant_type` it can see [M].
    let Some(params) = parse(&headers, &body) else {
        let refusal = (
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
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

/// Runs Discord's checks in order.
fn exchange(
    sim: &SimState,
    client: Option<&PresentedClient>,
    params: &TokenParams,
) -> Result<Value, Refusal> {
    const BAD_REQUEST: StatusCode = StatusCode::BAD_REQUEST;
    if params.grant_type.as_deref() != Some("authorization_code") {
        return Err((
            BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
        ));
    }
    let client = client
        .and_then(|c| authenticate(&sim.clients, Provider::Discord, c))
        .ok_or((StatusCode::UNAUTHORIZED, "invalid_client", "Unknown client"))?;
    // A verifier shorter than 43 characters is refused outright (PROVIDERS.md §6.3).
    if params
        .code_verifier
        .as_deref()
        .is_some_and(|verifier| !is_valid_verifier(verifier))
    {
        return Err(INVALID_VERIFIER);
    }
    let code =
        params
            .code
            .as_deref()
            .ok_or((BAD_REQUEST, "invalid_request", "Missing \"code\""))?;
    let invalid_code = (BAD_REQUEST, "invalid_grant", "Invalid \"code\" in request.");
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.codes.redeem(code).map_err(|_| invalid_code)?;
    if grant.provider != Provider::Discord || grant.client_id != client.client_id {
        return Err(invalid_code);
    }
    if params.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str()) {
        return Err((
            BAD_REQUEST,
            "invalid_grant",
            "Invalid \"redirect_uri\" in request.",
        ));
    }
    check_pkce(&grant, params.code_verifier.as_deref())?;
    Ok(answer(sim, grant))
}

/// Discord's rules: a stored challenge needs a matching verifier, and a verifier without
/// a stored challenge is refused too (next-auth issue #10352).
fn check_pkce(grant: &Grant, verifier: Option<&str>) -> Result<(), Refusal> {
    match (grant.code_challenge.as_deref(), verifier) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(INVALID_VERIFIER),
        (Some(_), None) => Err((
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing \"code_verifier\"",
        )),
        (Some(challenge), Some(verifier)) if s256_matches(verifier, challenge) => Ok(()),
        (Some(_), Some(_)) => Err((
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Invalid \"code_verifier\"",
        )),
    }
}

fn answer(sim: &SimState, grant: Grant) -> Value {
    let scope = grant.scopes.join(" ");
    let access_token = sim.tokens.issue(
        "",
        IssuedToken {
            provider: Provider::Discord,
            client_id: grant.client_id,
            scopes: grant.scopes,
            user: grant.user,
        },
    );
    json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": 604800,
        // Not redeemable here: the simulator does not implement the refresh grant.
        "refresh_token": random::base62(30),
        "scope": scope,
    })
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

    // RFC 7636 appendix B.
    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn grant(challenge: Option<&str>) -> Grant {
        Grant {
            provider: Provider::Discord,
            client_id: "c".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: challenge.map(Into::into),
            code_challenge_method: challenge.map(|_| "S256".into()),
            scopes: vec!["identify".into()],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    fn description(result: Result<(), Refusal>) -> &'static str {
        result.unwrap_err().2
    }

    #[test]
    fn a_matching_verifier_or_none_at_all_passes() {
        assert_eq!(check_pkce(&grant(Some(CHALLENGE)), Some(VERIFIER)), Ok(()));
        assert_eq!(check_pkce(&grant(None), None), Ok(()));
    }

    #[test]
    fn each_verifier_mistake_gets_discords_own_answer() {
        let missing = check_pkce(&grant(Some(CHALLENGE)), None);
        assert_eq!(description(missing), "Missing \"code_verifier\"");
        let unexpected = check_pkce(&grant(None), Some(VERIFIER));
        assert_eq!(unexpected, Err(INVALID_VERIFIER));
        let other = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let mismatch = check_pkce(&grant(Some(CHALLENGE)), Some(other));
        assert_eq!(mismatch.unwrap_err().1, "invalid_grant");
    }
}
