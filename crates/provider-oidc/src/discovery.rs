//! OpenID Connect Discovery for a provider from configuration: its document at
//! `{issuer}/.well-known/openid-configuration`, checked and reduced to what the code flow
//! and the id_token checks need (docs/configuration.md, "Providers from configuration").
//!
//! Every failure names the problem (unreachable, an HTTP status, not JSON, the wrong issuer,
//! a missing or unusable field) and nothing else: no body is ever quoted, only the
//! document's own `issuer` when it is the one that does not match.

use serde_json::{Map, Value};
use social_login_ports::ProviderError;
use social_login_provider_core::spec::{Endpoints, Published, TokenAuth};
use social_login_provider_core::{CallKind, ProviderHttp, fetch_json};
use url::Url;

#[cfg(test)]
mod tests;

/// Where the document is, below the issuer (OpenID Connect Discovery 1.0 §4).
const WELL_KNOWN: &str = "/.well-known/openid-configuration";

/// The id_token signature algorithms the verifier implements; `none` and HMAC never.
pub const SUPPORTED_ALGORITHMS: [&str; 8] = [
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384",
];

/// The algorithm every OpenID provider must support (OpenID Connect Core §15.1): assumed when
/// the document lists none.
const DEFAULT_ALGORITHM: &str = "RS256";

/// Longest document `issuer` repeated in an error: enough to see the difference.
const MAX_QUOTED_ISSUER: usize = 256;

/// What a discovery document says, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovered {
    /// The document's `issuer`: the `iss` the provider's id_tokens carry.
    pub issuer: String,
    pub authorization: Url,
    pub token: Url,
    pub jwks: Url,
    pub userinfo: Option<Url>,
    pub revocation: Option<Url>,
    /// How the client authenticates at the token endpoint when the operator did not say:
    /// the first of Basic and body the document lists, else Basic (RFC 8414 §2's default).
    pub client_auth: TokenAuth,
    /// The listed algorithms the verifier implements, in [`SUPPORTED_ALGORITHMS`] order;
    /// `["RS256"]` when the document lists none.
    pub signing_algorithms: Vec<&'static str>,
}

/// Why discovery failed; `Display` is the problem, for logs and `check-config`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryError {
    #[error("the issuer is not an http(s) URL")]
    InvalidIssuer,
    /// The document could not be had: unreachable, an HTTP status, too large, not JSON.
    #[error("{0}")]
    Fetch(String),
    #[error("the discovery document is not a JSON object")]
    NotAnObject,
    #[error("issuer is {found:?}, expected {expected:?}")]
    IssuerMismatch { found: String, expected: String },
    #[error("the discovery document is missing {0}")]
    Missing(&'static str),
    #[error("{0} in the discovery document is not an http(s) URL")]
    NotHttpUrl(&'static str),
    /// A secret or a code would travel in clear to an endpoint of an https provider.
    #[error("{0} in the discovery document is plain http while the issuer is https")]
    PlainHttp(&'static str),
    #[error("id_token_signing_alg_values_supported lists none of the supported algorithms")]
    NoSupportedAlgorithm,
}

/// Fetches and checks the discovery document of `issuer` (with one trailing `/` or none).
pub async fn discover(http: &ProviderHttp, issuer: &str) -> Result<Discovered, DiscoveryError> {
    let url = document_url(issuer)?;
    let document: Value = fetch_json(
        "discovery document",
        http,
        http.get(url),
        CallKind::Discovery,
    )
    .await
    .map_err(|error| match error {
        ProviderError::UserInfo(problem) => DiscoveryError::Fetch(problem),
        other => DiscoveryError::Fetch(other.to_string()),
    })?;
    let document = document.as_object().ok_or(DiscoveryError::NotAnObject)?;
    Discovered::from_document(issuer, document)
}

/// `{issuer minus one trailing /}/.well-known/openid-configuration`.
fn document_url(issuer: &str) -> Result<Url, DiscoveryError> {
    let base = Url::parse(issuer).map_err(|_| DiscoveryError::InvalidIssuer)?;
    if !matches!(base.scheme(), "http" | "https") || !base.has_host() {
        return Err(DiscoveryError::InvalidIssuer);
    }
    let trimmed = issuer.strip_suffix('/').unwrap_or(issuer);
    Url::parse(&format!("{trimmed}{WELL_KNOWN}")).map_err(|_| DiscoveryError::InvalidIssuer)
}

/// The same issuer, one trailing `/` on either side ignored (providers differ on it).
pub fn same_issuer(a: &str, b: &str) -> bool {
    a.strip_suffix('/').unwrap_or(a) == b.strip_suffix('/').unwrap_or(b)
}

impl Discovered {
    /// Checks a fetched document against the configured `issuer`.
    pub fn from_document(
        issuer: &str,
        document: &Map<String, Value>,
    ) -> Result<Self, DiscoveryError> {
        let found = match document.get("issuer") {
            Some(Value::String(found)) => found,
            Some(_) => return Err(DiscoveryError::NotHttpUrl("issuer")),
            None => return Err(DiscoveryError::Missing("issuer")),
        };
        if !same_issuer(found, issuer) {
            return Err(DiscoveryError::IssuerMismatch {
                found: found.chars().take(MAX_QUOTED_ISSUER).collect(),
                expected: issuer.to_owned(),
            });
        }
        let https = issuer.starts_with("https:");
        let endpoint = |field: &'static str| endpoint(document, field, https);
        let required = |field: &'static str| endpoint(field)?.ok_or(DiscoveryError::Missing(field));
        Ok(Self {
            issuer: found.clone(),
            authorization: required("authorization_endpoint")?,
            token: required("token_endpoint")?,
            jwks: required("jwks_uri")?,
            userinfo: endpoint("userinfo_endpoint")?,
            revocation: endpoint("revocation_endpoint")?,
            client_auth: client_auth(document),
            signing_algorithms: signing_algorithms(document)?,
        })
    }
}

impl Discovered {
    /// What the document publishes, as a declaration takes it.
    pub fn published(&self) -> Published {
        let text = |url: &Url| url.as_str().to_owned();
        Published {
            issuer: self.issuer.clone(),
            endpoints: Endpoints {
                authorization: text(&self.authorization),
                token: text(&self.token),
                userinfo: self.userinfo.as_ref().map(text),
                emails: None,
                jwks: Some(text(&self.jwks)),
                refresh: None,
            },
            revocation: self.revocation.as_ref().map(text),
            token_auth: self.client_auth,
            algorithms: self
                .signing_algorithms
                .iter()
                .map(|a| (*a).to_owned())
                .collect(),
        }
    }
}

/// The URL of `field`, if the document has it.
fn endpoint(
    document: &Map<String, Value>,
    field: &'static str,
    https: bool,
) -> Result<Option<Url>, DiscoveryError> {
    let Some(value) = document.get(field) else {
        return Ok(None);
    };
    let url = value
        .as_str()
        .and_then(|raw| Url::parse(raw).ok())
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.has_host())
        .ok_or(DiscoveryError::NotHttpUrl(field))?;
    if https && url.scheme() == "http" {
        return Err(DiscoveryError::PlainHttp(field));
    }
    Ok(Some(url))
}

/// The strings of the array `field` (other entries ignored); empty when absent.
fn listed<'a>(document: &'a Map<String, Value>, field: &str) -> Vec<&'a str> {
    document
        .get(field)
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn client_auth(document: &Map<String, Value>) -> TokenAuth {
    listed(document, "token_endpoint_auth_methods_supported")
        .into_iter()
        .find_map(|method| match method {
            "client_secret_basic" => Some(TokenAuth::ClientSecretBasic),
            "client_secret_post" => Some(TokenAuth::ClientSecretPost),
            _ => None,
        })
        .unwrap_or(TokenAuth::ClientSecretBasic)
}

fn signing_algorithms(document: &Map<String, Value>) -> Result<Vec<&'static str>, DiscoveryError> {
    let field = "id_token_signing_alg_values_supported";
    if !document.contains_key(field) {
        return Ok(vec![DEFAULT_ALGORITHM]);
    }
    let listed = listed(document, field);
    let usable: Vec<&'static str> = SUPPORTED_ALGORITHMS
        .into_iter()
        .filter(|algorithm| listed.contains(algorithm))
        .collect();
    if usable.is_empty() {
        return Err(DiscoveryError::NoSupportedAlgorithm);
    }
    Ok(usable)
}
