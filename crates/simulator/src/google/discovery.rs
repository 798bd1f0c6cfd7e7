//! The OIDC metadata of the simulated Google: its discovery document and its key set.

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::Arc;

/// `GET /google/.well-known/openid-configuration`, with the field set of PROVIDERS.md §1.1.
pub async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Google, Endpoint::Discovery, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let base = format!("{}/google", sim.base_url);
    let body = json!({
        "issuer": sim.google_issuer,
        "authorization_endpoint": format!("{base}/o/oauth2/v2/auth"),
        "token_endpoint": format!("{base}/token"),
        "userinfo_endpoint": format!("{base}/v1/userinfo"),
        "jwks_uri": format!("{base}/oauth2/v3/certs"),
        // Only what the simulator serves: the code flow, no refresh grant yet.
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "picture", "sub"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "grant_types_supported": ["authorization_code"],
    });
    sim.finish(record, "ok", Json(body).into_response())
}

/// `GET /google/oauth2/v3/certs`: the public keys, as a JWKS.
pub async fn certs(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Google, Endpoint::Jwks, &headers);
    if let Some(response) = sim.faults.strike(Provider::Google, Endpoint::Jwks).await {
        return sim.finish(record, "fault", response);
    }
    sim.finish(record, "ok", Json(sim.keys.jwks()).into_response())
}
