//! What the simulated Microsoft publishes and signs: discovery per tenant path, the key set
//! whose entries have no `alg` but an `issuer` member (PROVIDERS.md §4.1, §11.5), and the
//! id_token whose `iss` names the user's own tenant and whose `sub` is pairwise.

use super::aadsts::Aadsts;
use super::{MICROSOFT_CONSUMER_TENANT, P, TenantPath, issuer_of};
use crate::faults::Endpoint;
use crate::flow::serve_at;
use crate::id_token::Subject;
use crate::random;
use crate::state::SimState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::sync::Arc;

const TENANT_NOT_FOUND: Aadsts = Aadsts::new(
    StatusCode::BAD_REQUEST,
    "invalid_tenant",
    90002,
    "Tenant not found.",
);

/// `GET /{tenant}/v2.0/.well-known/openid-configuration`. For `common` and
/// `organizations` the `issuer` is the literal template with `{tenantid}` in it (not a
/// valid issuer: clients must fill it from each token), for `consumers` the consumer
/// tenant's, for a tenant GUID that tenant's.
pub async fn configuration(
    State(sim): State<Arc<SimState>>,
    Path(segment): Path<String>,
    headers: HeaderMap,
) -> Response {
    serve_at(&sim, (P, Endpoint::Discovery), &headers, |_| {
        let issuer = match TenantPath::parse(&segment).ok_or(TENANT_NOT_FOUND)? {
            TenantPath::Common | TenantPath::Organizations => issuer_of(&sim.base_url, "{tenantid}"),
            TenantPath::Consumers => issuer_of(&sim.base_url, MICROSOFT_CONSUMER_TENANT),
            TenantPath::Tenant(tid) => issuer_of(&sim.base_url, &tid),
        };
        let root = format!("{}/microsoft/{segment}", sim.base_url);
        Ok(Json(json!({
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
        })))
    })
    .await
}

/// `GET /{tenant}/discovery/v2.0/keys`: the signing keys the way Entra lists them, without
/// `alg` (clients must assume RS256) but with the issuer template.
pub async fn keys(
    State(sim): State<Arc<SimState>>,
    Path(segment): Path<String>,
    headers: HeaderMap,
) -> Response {
    serve_at(&sim, (P, Endpoint::Jwks), &headers, |_| {
        TenantPath::parse(&segment).ok_or(TENANT_NOT_FOUND)?;
        let template = issuer_of(&sim.base_url, "{tenantid}");
        let mut jwks = sim.keys.jwks();
        for key in jwks["keys"].as_array_mut().into_iter().flatten() {
            if let Some(object) = key.as_object_mut() {
                object.remove("alg");
                object.insert("issuer".into(), json!(template));
            }
        }
        Ok(Json(jwks))
    })
    .await
}

/// The claims Microsoft puts in a v2.0 id_token for this user and scopes.
pub(crate) fn id_token_claims(sim: &SimState, subject: &Subject<'_>, now: i64) -> Value {
    let user = subject.user;
    let account = user.microsoft_account();
    // `sub`: one opaque value per user and app, 43 base64url characters like Microsoft's.
    let pairwise = Sha256::digest(format!("{}|{}", user.id, subject.client_id).as_bytes());
    let mut claims = json!({
        "ver": "2.0",
        "iss": issuer_of(&sim.base_url, &account.tenant_id),
        "sub": URL_SAFE_NO_PAD.encode(pairwise),
        "aud": subject.client_id,
        // Microsoft's id_tokens live one hour.
        "exp": now + 3600,
        "iat": now,
        "nbf": now,
        "tid": account.tenant_id,
        "aio": random::base62(48),
        "rh": format!("0.{}.", random::base62(40)),
        "uti": random::base62(22),
        "sid": random::hex(32),
    });
    if let Some(nonce) = subject.nonce {
        claims["nonce"] = json!(nonce);
    }
    if subject.has("profile") {
        claims["oid"] = json!(account.object_id_of(user));
        claims["preferred_username"] = json!(account.username_of(user));
        if let Some(name) = &user.name {
            claims["name"] = json!(name);
        }
    }
    if subject.has("email")
        && let Some(email) = &user.email
    {
        claims["email"] = json!(email);
    }
    // An optional claim the app registration asks for; sent whatever the scopes.
    if let Some(flag) = &account.xms_edov {
        claims["xms_edov"] = flag.clone();
    }
    claims
}
