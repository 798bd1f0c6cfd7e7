//! The simulated LinkedIn's discovery document, key set and `GET /v2/userinfo`.

use super::claims::{Shape, member_claims};
use super::issuer;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::Arc;

/// `GET /linkedin/oauth/.well-known/openid-configuration` (PROVIDERS.md §5.1).
pub async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Linkedin, Endpoint::Discovery, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let base = format!("{}/linkedin", sim.base_url);
    let body = json!({
        "issuer": issuer(&sim.base_url),
        "authorization_endpoint": format!("{base}/oauth/v2/authorization"),
        "token_endpoint": format!("{base}/oauth/v2/accessToken"),
        "userinfo_endpoint": format!("{base}/v2/userinfo"),
        "jwks_uri": format!("{base}/oauth/openid/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "profile", "email"],
        "claims_supported": ["iss", "aud", "iat", "exp", "sub", "name", "given_name", "family_name", "picture", "email", "email_verified", "locale"],
    });
    sim.finish(record, "ok", Json(body).into_response())
}

/// `GET /linkedin/oauth/openid/jwks`: RSA keys with `alg: RS256`.
pub async fn jwks(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Linkedin, Endpoint::Jwks, &headers);
    if let Some(response) = sim.faults.strike(Provider::Linkedin, Endpoint::Jwks).await {
        return sim.finish(record, "fault", response);
    }
    sim.finish(record, "ok", Json(sim.keys.jwks()).into_response())
}

/// `GET /linkedin/v2/userinfo` for a Bearer token that was granted `openid`.
pub async fn userinfo(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Linkedin, Endpoint::Userinfo, &headers);
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
        .filter(|issued| issued.provider == Provider::Linkedin);
    let Some(issued) = token else {
        return sim.finish(
            record,
            "invalid_token",
            api_error(401, 65600, "Invalid access token"),
        );
    };
    if !issued.has_any_scope(&["openid"]) {
        let response = api_error(
            403,
            100,
            "Not enough permissions to access: userinfo.GET.NO_VERSION",
        );
        return sim.finish(record, "access_denied", response);
    }
    let mut body = json!({ "sub": issued.user.id });
    if let Some(object) = body.as_object_mut() {
        object.extend(member_claims(&issued.user, &issued.scopes, Shape::Userinfo));
    }
    sim.finish(record, "ok", Json(body).into_response())
}

/// LinkedIn's REST API error shape.
fn api_error(status: u16, service_code: u32, message: &str) -> Response {
    let body = json!({"serviceErrorCode": service_code, "message": message, "status": status});
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(body)).into_response()
}
