//! What each simulated endpoint received, for tests to inspect. Never a secret or a token.

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::lock::locked;
use axum::http::{HeaderMap, header};
use serde::Serialize;
use std::sync::Mutex;

/// How a client authenticated at a token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientAuthKind {
    /// `client_id` + `client_secret` in the body.
    Body,
    /// HTTP Basic.
    Basic,
    /// Only a `client_id` in the body, no secret.
    None,
}

/// One request, as the simulator saw it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RequestRecord {
    pub provider: Option<Provider>,
    pub endpoint: Option<Endpoint>,
    pub client_id: Option<String>,
    pub client_auth: Option<ClientAuthKind>,
    pub scope: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub code_verifier_present: bool,
    /// Whether the authorization request carried a `nonce` (its value is not kept).
    pub nonce_present: bool,
    pub redirect_uri: Option<String>,
    pub user_agent: Option<String>,
    pub accept: Option<String>,
    pub content_type: Option<String>,
    /// The scheme of the `Authorization` header (`Bearer`, `token`, `Basic`), never its value.
    pub authorization_scheme: Option<String>,
    pub api_version: Option<String>,
    /// Apple: `iat` and `exp` of the ES256 client secret that verified (never the JWT).
    pub client_secret_iat: Option<i64>,
    pub client_secret_exp: Option<i64>,
    /// `ok`, or the error the simulator answered.
    pub outcome: String,
}

impl RequestRecord {
    /// A record with the headers every endpoint cares about.
    pub fn new(provider: Provider, endpoint: Endpoint, headers: &HeaderMap) -> Self {
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        Self {
            provider: Some(provider),
            endpoint: Some(endpoint),
            user_agent: text(header::USER_AGENT.as_str()),
            accept: text(header::ACCEPT.as_str()),
            content_type: text(header::CONTENT_TYPE.as_str()),
            authorization_scheme: text(header::AUTHORIZATION.as_str())
                .and_then(|value| value.split_whitespace().next().map(str::to_owned)),
            api_version: text("x-github-api-version"),
            ..Self::default()
        }
    }
}

/// All records, oldest first.
#[derive(Debug, Default)]
pub struct RequestLog {
    records: Mutex<Vec<RequestRecord>>,
}

impl RequestLog {
    pub fn push(&self, record: RequestRecord) {
        locked(&self.records).push(record);
    }

    pub fn all(&self) -> Vec<RequestRecord> {
        locked(&self.records).clone()
    }
}
