//! What other services need to verify access tokens without `secret_key` (CONTRACT §6): the
//! public keys as a JWKS (RFC 7517) and an OpenID-style discovery document naming them.

use super::AppState;
use super::error::{ApiError, Problem};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Uri, header, uri::Authority};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use social_login_security::PublicJwk;
use utoipa::ToSchema;

pub const JWKS_PATH: &str = "/.well-known/jwks.json";
/// Long enough to spare the service, short enough that a new key (after a `secret_key`
/// rotation) reaches verifiers that do not refetch on an unknown `kid` within minutes.
const JWKS_CACHE: HeaderValue = HeaderValue::from_static("public, max-age=300");
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
    /// `{issuer}/.well-known/jwks.json` when the issuer is an http(s) URL; otherwise the
    /// JWKS address is built from the request's host.
    jwks_uri: Option<String>,
}

impl WellKnown {
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
        let jwks_uri = url::Url::parse(issuer)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .map(|_| format!("{}{JWKS_PATH}", issuer.trim_end_matches('/')));
        Self {
            jwks: Bytes::from(jwks),
            issuer: issuer.to_owned(),
            jwks_uri,
        }
    }

    /// The JWKS address, absolute; `None` when it depends on a request without a usable host.
    fn jwks_uri(&self, uri: &Uri, headers: &HeaderMap) -> Option<String> {
        if let Some(fixed) = &self.jwks_uri {
            return Some(fixed.clone());
        }
        let host = match uri.authority() {
            Some(authority) => authority.clone(),
            None => headers.get(header::HOST)?.to_str().ok()?.parse().ok()?,
        };
        plain_host(&host).then(|| format!("http://{host}{JWKS_PATH}"))
    }
}

/// A host and port only: no user info, which could make the URL point elsewhere.
fn plain_host(authority: &Authority) -> bool {
    !authority.as_str().contains('@') && !authority.host().is_empty()
}

/// The public keys of the access tokens (RFC 7517).
#[utoipa::path(get, path = "/.well-known/jwks.json", tag = "tokens", responses(
    (status = 200, body = Jwks, description = "Cache-Control: public, max-age=300"),
))]
pub async fn jwks(State(state): State<AppState>) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, JWKS_CACHE),
        ],
        state.well_known.jwks.clone(),
    )
        .into_response()
}

/// The issuer of the access tokens and the address of its keys. `jwks_uri` is under the
/// issuer when `[tokens] issuer` is an http(s) URL, else under the request's host.
#[utoipa::path(get, path = "/.well-known/openid-configuration", tag = "tokens", responses(
    (status = 200, body = OpenIdConfiguration),
    (status = 422, body = Problem, content_type = "application/problem+json",
        description = "no usable Host header and no URL issuer to build `jwks_uri` from"),
))]
pub async fn openid_configuration(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let well_known = &state.well_known;
    let jwks_uri = well_known.jwks_uri(&uri, &headers).ok_or_else(|| {
        ApiError::validation("the request has no usable Host header to build jwks_uri from")
    })?;
    let document = OpenIdConfiguration {
        issuer: well_known.issuer.clone(),
        jwks_uri,
    };
    Ok((
        [(header::CACHE_CONTROL, DISCOVERY_CACHE)],
        axum::Json(document),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(host: Option<&str>) -> (Uri, HeaderMap) {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        }
        (
            Uri::from_static("/.well-known/openid-configuration"),
            headers,
        )
    }

    #[test]
    fn a_url_issuer_is_the_base_of_the_jwks_uri_whatever_the_host() {
        for issuer in ["https://auth.example.com", "https://auth.example.com/"] {
            let known = WellKnown::new(issuer, &[]);
            let (uri, headers) = request(Some("evil.example"));
            assert_eq!(
                known.jwks_uri(&uri, &headers).as_deref(),
                Some("https://auth.example.com/.well-known/jwks.json")
            );
        }
    }

    #[test]
    fn without_a_url_issuer_the_host_is_the_base_and_must_be_plain() {
        let known = WellKnown::new("social-login", &[]);
        let (uri, headers) = request(Some("127.0.0.1:8080"));
        assert_eq!(
            known.jwks_uri(&uri, &headers).as_deref(),
            Some("http://127.0.0.1:8080/.well-known/jwks.json")
        );
        for bad in [None, Some("user@evil.example"), Some("a b"), Some("")] {
            let (uri, headers) = request(bad);
            assert_eq!(known.jwks_uri(&uri, &headers), None, "{bad:?}");
        }
    }
}
