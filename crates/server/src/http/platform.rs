//! What other services need to verify access tokens without `secret_key` (docs/api.md#sessions-and-access-tokens): the
//! public keys as a JWKS (RFC 7517) and an OpenID-style discovery document naming them.

use super::AppState;
use super::error::{ApiError, Problem};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use social_login_domain::ErrorCode;
use social_login_security::PublicJwk;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The platform resource: static public documents, not limited per IP.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(jwks))
        .routes(routes!(openid_configuration))
}

pub const JWKS_PATH: &str = "/.well-known/jwks.json";
/// Long enough to spare the service, short enough that a new key (after a `secret_key`
/// rotation) reaches verifiers that do not refetch on an unknown `kid` within minutes.
const JWKS_CACHE: HeaderValue = HeaderValue::from_static("public, max-age=300");
/// The document changes only with the configuration (`server.public_url`, `tokens.issuer`).
const DISCOVERY_CACHE: HeaderValue = HeaderValue::from_static("public, max-age=3600");

/// A public signing key (RFC 8037 `OKP`/`Ed25519`); never a private part.
#[derive(Debug, Serialize, ToSchema)]
pub struct Jwk {
    #[schema(example = "OKP")]
    kty: String,
    #[schema(example = "Ed25519")]
    crv: String,
    #[schema(example = "EdDSA")]
    alg: String,
    #[serde(rename = "use")]
    #[schema(example = "sig")]
    usage: String,
    /// The RFC 7638 thumbprint of the key, as in the tokens' header `kid`.
    kid: String,
    /// The public key, base64url.
    x: String,
}

/// RFC 7517 JWK Set: every key that may have signed a still-valid access token.
#[derive(Debug, Serialize, ToSchema)]
pub struct Jwks {
    keys: Vec<Jwk>,
}

/// The discovery document: the issuer of access tokens and where its keys are.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenIdConfiguration {
    /// `[tokens] issuer`: the `iss` of every access token.
    issuer: String,
    /// Absolute URL of the JWKS.
    jwks_uri: String,
}

/// Both documents' content, rendered once at start-up.
#[derive(Debug, Clone)]
pub struct WellKnown {
    jwks: Bytes,
    issuer: String,
    /// The discovery document; `None` without `server.public_url`, the only base its
    /// `jwks_uri` may have (never the request's `Host`, which the client chooses).
    discovery: Option<Bytes>,
}

impl WellKnown {
    /// The key set of `issuer`'s tokens, and no discovery document until
    /// [`WellKnown::with_jwks_uri`] names where the key set is.
    pub fn new(issuer: &str, keys: &[PublicJwk]) -> Self {
        let keys = keys
            .iter()
            .map(|key| Jwk {
                kty: key.kty().to_owned(),
                crv: key.crv().to_owned(),
                alg: key.alg().to_owned(),
                usage: key.usage().to_owned(),
                kid: key.kid().to_owned(),
                x: key.x().to_owned(),
            })
            .collect();
        let jwks = serde_json::to_vec(&Jwks { keys }).expect("a JWKS serialises");
        Self {
            jwks: Bytes::from(jwks),
            issuer: issuer.to_owned(),
            discovery: None,
        }
    }

    /// Serves the discovery document with this absolute `jwks_uri` (built on
    /// `server.public_url`); `None` serves none.
    pub fn with_jwks_uri(mut self, jwks_uri: Option<String>) -> Self {
        self.discovery = jwks_uri.map(|jwks_uri| {
            let document = OpenIdConfiguration {
                issuer: self.issuer.clone(),
                jwks_uri,
            };
            Bytes::from(serde_json::to_vec(&document).expect("the discovery document serialises"))
        });
        self
    }
}

/// The public keys of the access tokens (RFC 7517).
#[utoipa::path(get, path = "/.well-known/jwks.json", tag = "tokens", responses(
    (status = 200, body = Jwks, description = "Cache-Control: public, max-age=300"),
))]
pub async fn jwks(State(state): State<AppState>) -> Response {
    json_document(state.well_known.jwks.clone(), JWKS_CACHE)
}

/// The issuer of the access tokens and the address of its keys, `jwks_uri`, under
/// `server.public_url`. Not served (404) when `server.public_url` is unset.
#[utoipa::path(get, path = "/.well-known/openid-configuration", tag = "tokens", responses(
    (status = 200, body = OpenIdConfiguration, description = "Cache-Control: public, max-age=3600"),
    (status = 404, body = Problem, content_type = "application/problem+json",
        description = "`server.public_url` is not configured"),
))]
pub async fn openid_configuration(State(state): State<AppState>) -> Result<Response, ApiError> {
    let document = state
        .well_known
        .discovery
        .clone()
        .ok_or_else(|| ApiError::of(ErrorCode::NotFound))?;
    Ok(json_document(document, DISCOVERY_CACHE))
}

fn json_document(body: Bytes, cache: HeaderValue) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, cache),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_jwks_uri_there_is_no_discovery_document() {
        assert!(WellKnown::new("social-login", &[]).discovery.is_none());
        let known = WellKnown::new("social-login", &[]).with_jwks_uri(None);
        assert!(known.discovery.is_none());
    }

    #[test]
    fn the_discovery_document_names_the_issuer_and_the_given_jwks_uri() {
        let known = WellKnown::new("https://auth.example.com", &[]).with_jwks_uri(Some(
            "https://auth.example.com/.well-known/jwks.json".into(),
        ));
        let document: serde_json::Value =
            serde_json::from_slice(known.discovery.as_deref().unwrap()).unwrap();
        assert_eq!(
            document,
            serde_json::json!({
                "issuer": "https://auth.example.com",
                "jwks_uri": "https://auth.example.com/.well-known/jwks.json",
            })
        );
    }
}
