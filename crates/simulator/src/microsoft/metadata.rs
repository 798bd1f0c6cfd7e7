//! The OIDC metadata of the simulated Microsoft: discovery per tenant path, and the key set
//! whose entries have no `alg` but an `issuer` member (PROVIDERS.md §4.1, §11.5).

use super::aadsts::Aadsts;
use super::{MICROSOFT_CONSUMER_TENANT, TenantPath, issuer_of};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

const TENANT_NOT_FOUND: Aadsts = Aadsts::new(
    StatusCode::BAD_REQUEST,
    "invalid_tenant",
    90002,
    "Tenant not found.",
);

/// `GET /microsoft/{tenant}/v2.0/.well-known/openid-configuration`. For `common` and
/// `organizations` the `issuer` is the literal template with `{tenantid}` in it (not a
/// valid issuer: clients must fill it from each token), for `consumers` the consumer
/// tenant's, for a tenant GUID that tenant's.
pub async fn configuration(
    State(sim): State<Arc<SimState>>,
    Path(segment): Path<String>,
    headers: HeaderMap,
) -> Response {
    let record = RequestRecord::new(Provider::Microsoft, Endpoint::Discovery, &headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let Some(tenant) = TenantPath::parse(&segment) else {
        return sim.finish(record, "invalid_tenant", TENANT_NOT_FOUND.response());
    };
    let issuer = match &tenant {
        TenantPath::Common | TenantPath::Organizations => issuer_of(&sim.base_url, "{tenantid}"),
        TenantPath::Consumers => issuer_of(&sim.base_url, MICROSOFT_CONSUMER_TENANT),
        TenantPath::Tenant(tid) => issuer_of(&sim.base_url, tid),
    };
    let root = format!("{}/microsoft/{segment}", sim.base_url);
    let body = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{root}/oauth2/v2.0/authorize"),
        "token_endpoint": format!("{root}/oauth2/v2.0/token"),
        "jwks_uri": format!("{root}/discovery/v2.0/keys"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "nbf", "name", "nonce", "oid", "preferred_username", "email", "tid", "ver"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "tenant_region_scope": null,
        "request_uri_parameter_supported": false,
    });
    sim.finish(record, "ok", Json(body).into_response())
}

/// `GET /microsoft/{tenant}/discovery/v2.0/keys`: the signing keys, without `alg`.
pub async fn keys(
    State(sim): State<Arc<SimState>>,
    Path(segment): Path<String>,
    headers: HeaderMap,
) -> Response {
    let record = RequestRecord::new(Provider::Microsoft, Endpoint::Jwks, &headers);
    if let Some(response) = sim.faults.strike(Provider::Microsoft, Endpoint::Jwks).await {
        return sim.finish(record, "fault", response);
    }
    if TenantPath::parse(&segment).is_none() {
        return sim.finish(record, "invalid_tenant", TENANT_NOT_FOUND.response());
    }
    let template = issuer_of(&sim.base_url, "{tenantid}");
    let keys: Vec<Value> = sim.keys.jwks()["keys"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|key| entra_key(key, &template))
        .collect();
    sim.finish(record, "ok", Json(json!({ "keys": keys })).into_response())
}

/// A JWK the way Entra lists it: no `alg` (clients must assume RS256), plus `issuer`.
fn entra_key(key: &Value, issuer: &str) -> Value {
    let mut key = key.clone();
    if let Some(object) = key.as_object_mut() {
        object.remove("alg");
        object.insert("issuer".into(), json!(issuer));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::TEST_KEY_A;

    #[test]
    fn entra_keys_have_no_alg_but_an_issuer() {
        let key = entra_key(&TEST_KEY_A.jwk(), "http://sim/microsoft/{tenantid}/v2.0");
        assert!(key.get("alg").is_none());
        assert_eq!(key["issuer"], "http://sim/microsoft/{tenantid}/v2.0");
        assert_eq!(key["kid"], TEST_KEY_A.kid);
        assert_eq!(key["use"], "sig");
    }
}
