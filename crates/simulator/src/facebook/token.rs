//! `GET|POST /facebook/graph/{version}/oauth/access_token`: the code exchange. Parameters
//! come in the query or a form body; client credentials are parameters (Facebook has no
//! Basic); failures use the Graph error envelope with HTTP 400.

use super::graph_error::GraphError;
use super::is_version;
use crate::client_auth::{PresentedClient, authenticate};
use crate::codes::{Grant, RedeemError};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::{ClientAuthKind, RequestRecord};
use crate::pkce::s256_matches;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, header};
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

impl TokenParams {
    /// Body parameters win; the query fills what the body lacks.
    fn or(self, other: Self) -> Self {
        Self {
            client_id: self.client_id.or(other.client_id),
            client_secret: self.client_secret.or(other.client_secret),
            code: self.code.or(other.code),
            redirect_uri: self.redirect_uri.or(other.redirect_uri),
            code_verifier: self.code_verifier.or(other.code_verifier),
            grant_type: self.grant_type.or(other.grant_type),
        }
    }
}

const BAD_APP: GraphError =
    GraphError::oauth(101, "Error validating application. Invalid application ID.");
const BAD_SECRET: GraphError = GraphError::oauth(1, "Error validating client secret.");
const BAD_CODE: GraphError = GraphError::oauth(100, "Invalid verification code format.");
const USED_OR_UNKNOWN_CODE: GraphError =
    GraphError::oauth(100, "This authorization code has been used.").with_subcode(36009);
const EXPIRED_CODE: GraphError =
    GraphError::oauth(100, "This authorization code has expired.").with_subcode(36007);
const REDIRECT_MISMATCH: GraphError = GraphError::oauth(
    100,
    "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
)
.with_subcode(36008);
const MISSING_REDIRECT: GraphError = GraphError::oauth(191, "Missing redirect_uri parameter.");
// The wording of the PKCE failures is not documented [M].
const MISSING_VERIFIER: GraphError = GraphError::oauth(100, "Missing code_verifier parameter.");
const BAD_VERIFIER: GraphError = GraphError::oauth(100, "Invalid code_verifier.");

pub async fn access_token(
    State(sim): State<Arc<SimState>>,
    Path(version): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut record = RequestRecord::new(Provider::Facebook, Endpoint::Token, &headers);
    record.api_version = Some(version.clone());
    if let Some(response) = sim.faults.strike(Provider::Facebook, Endpoint::Token).await {
        return sim.finish(record, "fault", response);
    }
    if !is_version(&version) {
        let error = GraphError::oauth(2500, "Unknown path components");
        return sim.finish(record, &error.outcome(), error.response());
    }
    let from_query: TokenParams =
        serde_urlencoded::from_str(query.as_deref().unwrap_or_default()).unwrap_or_default();
    let params = form_body(&headers, &body).or(from_query);
    record.code_verifier_present = params.code_verifier.is_some();
    record.redirect_uri = params.redirect_uri.clone();
    record.client_id = params.client_id.clone();
    record.client_auth = params.client_id.as_ref().map(|_| {
        if params.client_secret.is_some() {
            ClientAuthKind::Body
        } else {
            ClientAuthKind::None
        }
    });
    match exchange(&sim, &params) {
        Ok(answer) => sim.finish(record, "ok", Json(answer).into_response()),
        Err(error) => sim.finish(record, &error.outcome(), error.response()),
    }
}

/// Runs Facebook's checks in order.
fn exchange(sim: &SimState, params: &TokenParams) -> Result<Value, GraphError> {
    if params
        .grant_type
        .as_deref()
        .is_some_and(|g| g != "authorization_code")
    {
        return Err(GraphError::oauth(100, "Unsupported grant_type"));
    }
    let client_id = params.client_id.clone().ok_or(BAD_APP)?;
    if sim.client(Provider::Facebook, &client_id).is_none() {
        return Err(BAD_APP);
    }
    let presented = PresentedClient {
        client_id,
        client_secret: params.client_secret.clone(),
        kind: ClientAuthKind::Body,
    };
    let client = authenticate(&sim.clients, Provider::Facebook, &presented).ok_or(BAD_SECRET)?;
    let redirect_uri = params.redirect_uri.as_deref().ok_or(MISSING_REDIRECT)?;
    let code = params.code.as_deref().ok_or(BAD_CODE)?;
    // Redeeming burns the code, so any failure below still makes it unusable.
    let grant = sim.codes.redeem(code).map_err(|error| match error {
        RedeemError::Unknown => USED_OR_UNKNOWN_CODE,
        RedeemError::Expired => EXPIRED_CODE,
    })?;
    if grant.provider != Provider::Facebook || grant.client_id != client.client_id {
        return Err(USED_OR_UNKNOWN_CODE);
    }
    if redirect_uri != grant.redirect_uri {
        return Err(REDIRECT_MISMATCH);
    }
    check_pkce(&grant, params.code_verifier.as_deref())?;
    let access_token = sim.tokens.issue(
        "EAA",
        IssuedToken {
            provider: Provider::Facebook,
            client_id: grant.client_id,
            scopes: grant.scopes,
            user: grant.user,
        },
    );
    Ok(json!({
        "access_token": access_token,
        "token_type": "bearer",
        "expires_in": 5183999,
    }))
}

/// With a stored challenge the verifier must match it (S256, or equality for `plain`).
/// A verifier without a challenge is ignored.
fn check_pkce(grant: &Grant, verifier: Option<&str>) -> Result<(), GraphError> {
    let Some(challenge) = grant.code_challenge.as_deref() else {
        return Ok(());
    };
    let verifier = verifier.ok_or(MISSING_VERIFIER)?;
    let matches = match grant.code_challenge_method.as_deref() {
        Some("S256") => s256_matches(verifier, challenge),
        _ => bool::from(verifier.as_bytes().ct_eq(challenge.as_bytes())),
    };
    matches.then_some(()).ok_or(BAD_VERIFIER)
}

fn form_body(headers: &HeaderMap, body: &[u8]) -> TokenParams {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    if form {
        serde_urlencoded::from_bytes(body).unwrap_or_default()
    } else {
        TokenParams::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::SimUser;

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn grant(challenge: Option<&str>, method: Option<&str>) -> Grant {
        Grant {
            provider: Provider::Facebook,
            client_id: "app".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: challenge.map(Into::into),
            code_challenge_method: method.map(Into::into),
            scopes: vec!["email".into()],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    #[test]
    fn a_stored_challenge_needs_its_verifier_and_none_needs_nothing() {
        let s256 = grant(Some(CHALLENGE), Some("S256"));
        assert_eq!(check_pkce(&s256, Some(VERIFIER)), Ok(()));
        assert_eq!(check_pkce(&s256, None), Err(MISSING_VERIFIER));
        assert_eq!(check_pkce(&s256, Some(CHALLENGE)), Err(BAD_VERIFIER));
        assert_eq!(
            check_pkce(&grant(Some(VERIFIER), None), Some(VERIFIER)),
            Ok(())
        );
        assert_eq!(check_pkce(&grant(None, None), Some(VERIFIER)), Ok(()));
    }

    #[test]
    fn body_parameters_win_over_the_query() {
        let body = TokenParams {
            code: Some("from-body".into()),
            ..TokenParams::default()
        };
        let query = TokenParams {
            code: Some("from-query".into()),
            client_id: Some("app".into()),
            ..TokenParams::default()
        };
        let merged = body.or(query);
        assert_eq!(merged.code.as_deref(), Some("from-body"));
        assert_eq!(merged.client_id.as_deref(), Some("app"));
    }
}
