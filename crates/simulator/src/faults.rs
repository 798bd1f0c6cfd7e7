//! Injected failures: per provider and endpoint, a status, a garbage body, a delay, or an
//! OAuth error answered with HTTP 200.

use crate::config::Provider;
use crate::lock::locked;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// An endpoint a fault can be attached to. `Userinfo` is the profile endpoint (GitHub `/user`,
/// Google `/v1/userinfo`); `Discovery` and `Jwks` are the OIDC metadata and key set; `Api`
/// the small API every provider serves under `{prefix}/api/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    Authorize,
    Token,
    #[serde(alias = "user")]
    Userinfo,
    Emails,
    /// The token revocation endpoint.
    #[serde(alias = "revocation")]
    Revoke,
    Discovery,
    Jwks,
    /// The provider's API at `{prefix}/api/...` (what the service's relay calls).
    Api,
}

/// One injected failure; the body of `POST /_control/faults`. A fault stays until it is
/// replaced (same provider and endpoint) or all faults are cleared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub provider: Provider,
    pub endpoint: Endpoint,
    /// Answer this HTTP status instead of the real answer.
    pub status: Option<u16>,
    /// Answer a body that is not JSON (with the status, or 200 labelled as JSON).
    #[serde(default)]
    pub garbage: bool,
    /// Wait this long before answering (to trip client timeouts).
    pub delay_ms: Option<u64>,
    /// Answer HTTP 200 with `{"error": <this>}`, as GitHub's token endpoint does.
    pub error_in_200: Option<String>,
}

impl Fault {
    /// A fault that does nothing yet; add its effects with the builder methods.
    pub fn new(provider: Provider, endpoint: Endpoint) -> Self {
        Self {
            provider,
            endpoint,
            status: None,
            garbage: false,
            delay_ms: None,
            error_in_200: None,
        }
    }

    pub fn status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    pub fn garbage(mut self) -> Self {
        self.garbage = true;
        self
    }

    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay_ms = Some(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX));
        self
    }

    pub fn error_in_200(mut self, code: impl Into<String>) -> Self {
        self.error_in_200 = Some(code.into());
        self
    }

    /// Waits out the delay, then returns the answer that replaces the real one, if any.
    async fn strike(&self) -> Option<Response> {
        if let Some(ms) = self.delay_ms {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        if let Some(code) = &self.error_in_200 {
            let body = serde_json::json!({"error": code, "error_description": "simulated fault"});
            return Some((StatusCode::OK, axum::Json(body)).into_response());
        }
        let garbage = || {
            (
                [(header::CONTENT_TYPE, "application/json")],
                "<html>simulated garbage",
            )
                .into_response()
        };
        match (self.status, self.garbage) {
            (Some(status), garbage_body) => {
                let status =
                    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                let mut response = if garbage_body {
                    garbage()
                } else {
                    axum::Json(serde_json::json!({"message": "simulated fault"})).into_response()
                };
                *response.status_mut() = status;
                Some(response)
            }
            (None, true) => Some(garbage()),
            (None, false) => None,
        }
    }
}

/// The active faults.
#[derive(Debug, Default)]
pub struct FaultStore {
    faults: Mutex<HashMap<(Provider, Endpoint), Fault>>,
}

impl FaultStore {
    pub fn set(&self, fault: Fault) {
        locked(&self.faults).insert((fault.provider, fault.endpoint), fault);
    }

    pub fn clear(&self) {
        locked(&self.faults).clear();
    }

    /// Applies the fault of this endpoint, if any: `Some` is the answer to send instead.
    pub async fn strike(&self, provider: Provider, endpoint: Endpoint) -> Option<Response> {
        let fault = locked(&self.faults).get(&(provider, endpoint)).cloned()?;
        fault.strike().await
    }
}
