//! The OIDC metadata of the simulated Apple: its discovery document (PROVIDERS.md §8.1)
//! and its key set.

use super::APPLE_ISSUER;
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

/// What Apple's discovery document briefly advertised in June 2025.
const INCIDENT_ISSUER: &str = "https://account.apple.com";

/// `GET /apple/.well-known/openid-configuration`. No userinfo endpoint: Apple has none.
pub async fn configuration(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Apple, Endpoint::Discovery, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let issuer = if sim.apple.knobs().advertise_account_apple_issuer {
        INCIDENT_ISSUER
    } else {
        APPLE_ISSUER
    };
    let base = format!("{}/apple", sim.base_url);
    let body = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{base}/auth/authorize"),
        "token_endpoint": format!("{base}/auth/token"),
        "revocation_endpoint": format!("{base}/auth/revoke"),
        "jwks_uri": format!("{base}/auth/keys"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "name"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "is_private_email",
            "iss", "nonce", "nonce_supported", "real_user_status", "sub", "transfer_sub"],
    });
    sim.finish(record, "ok", Json(body).into_response())
}

/// `GET /apple/auth/keys`: the public keys, as a JWKS.
pub async fn keys(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let record = RequestRecord::new(Provider::Apple, Endpoint::Jwks, &headers);
    if let Some(response) = sim.faults.strike(Provider::Apple, Endpoint::Jwks).await {
        return sim.finish(record, "fault", response);
    }
    sim.finish(record, "ok", Json(sim.keys.jwks()).into_response())
}
