//! `social-login healthcheck`: one bounded GET for container health checks, because the
//! runtime image has no curl or wget (and no shell to run them).

use crate::http::error::cause_chain;
use std::time::Duration;
use url::Url;

/// What the image's `HEALTHCHECK` probes: liveness on the port the container listens on.
pub const DEFAULT_URL: &str = "http://127.0.0.1:8080/healthz";

/// The whole probe (connect, send, response headers) must finish within this.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Why the probe says unhealthy. The URL is the operator's own; nothing else is quoted.
#[derive(Debug, thiserror::Error)]
pub enum HealthcheckError {
    #[error("{url} answered {status}")]
    Status {
        url: Url,
        status: reqwest::StatusCode,
    },
    #[error("{url}: {reason}")]
    Unreachable { url: Url, reason: String },
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

/// GETs `url` once; `Ok` only for a 2xx within `timeout`. Redirects are not followed (a 3xx
/// is unhealthy) and no proxy from the environment is used: the target is the container itself.
pub async fn probe(url: &Url, timeout: Duration) -> Result<(), HealthcheckError> {
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .map_err(|error| HealthcheckError::Client(with_causes(error)))?;
    let response =
        client
            .get(url.clone())
            .send()
            .await
            .map_err(|error| HealthcheckError::Unreachable {
                url: url.clone(),
                reason: with_causes(error),
            })?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(HealthcheckError::Status {
            url: url.clone(),
            status,
        })
    }
}

/// reqwest's own message is only "error sending request"; the cause (refused, timed out)
/// is in its source chain. The URL is dropped: the error names it once already.
fn with_causes(error: reqwest::Error) -> String {
    cause_chain(&error.without_url())
}
