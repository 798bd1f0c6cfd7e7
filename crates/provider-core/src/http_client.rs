//! The one pooled HTTP client every adapter shares.

use std::time::Duration;

/// `User-Agent` sent on every provider call. GitHub's REST API rejects requests without one.
pub const USER_AGENT: &str = concat!("social-login/", env!("CARGO_PKG_VERSION"));

/// Longest a TCP + TLS connect may take, whatever the total budget is.
const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The shared client could not be built (TLS back end failed to initialise).
#[derive(Debug, thiserror::Error)]
#[error("could not build the provider HTTP client: {0}")]
pub struct HttpClientError(String);

/// Builds the client all providers share: one connection pool for the whole process.
///
/// Redirects are off: a token or profile endpoint that redirects is misconfigured or
/// hostile, and following it would replay credentials to another URL. `timeout` bounds
/// each whole request (connect, send, read the body); past it the call fails, which the
/// adapters report as a provider failure (502), never as a hang.
pub fn build_http_client(timeout: Duration) -> Result<reqwest::Client, HttpClientError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(timeout.min(MAX_CONNECT_TIMEOUT))
        .timeout(timeout)
        .user_agent(USER_AGENT)
        .build()
        .map_err(|error| HttpClientError(error.without_url().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_agent_names_the_service_and_its_version() {
        assert!(USER_AGENT.starts_with("social-login/"));
        assert!(USER_AGENT.len() > "social-login/".len());
    }

    #[test]
    fn a_client_builds_with_a_short_timeout() {
        assert!(build_http_client(Duration::from_millis(50)).is_ok());
    }
}
