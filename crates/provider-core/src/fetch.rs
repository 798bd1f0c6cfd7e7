//! Reading a provider's JSON API answer (profile, emails, userinfo) with bounded size.

use crate::failure::{user_info_status, user_info_transport, user_info_unreadable};
use serde::de::DeserializeOwned;
use social_login_ports::ProviderError;

/// Largest profile or emails answer we read.
pub const MAX_API_RESPONSE_BYTES: usize = 1024 * 1024;

/// Sends `request` and decodes a 2xx JSON answer. Every failure is
/// `ProviderError::UserInfo` naming `what` ("profile endpoint") and the kind of failure.
pub async fn fetch_json<T: DeserializeOwned>(
    what: &str,
    request: reqwest::RequestBuilder,
) -> Result<T, ProviderError> {
    fetch_json_unless(what, request, &[])
        .await?
        .ok_or_else(|| user_info_status(what, reqwest::StatusCode::NOT_FOUND))
}

/// Like [`fetch_json`], but a status in `absent` means "the provider has nothing for us"
/// (`Ok(None)`), not a failure: e.g. GitHub's emails endpoint without the email scope.
pub async fn fetch_json_unless<T: DeserializeOwned>(
    what: &str,
    request: reqwest::RequestBuilder,
    absent: &[reqwest::StatusCode],
) -> Result<Option<T>, ProviderError> {
    let mut response = request
        .send()
        .await
        .map_err(|e| user_info_transport(what, &e))?;
    if absent.contains(&response.status()) {
        return Ok(None);
    }
    if !response.status().is_success() {
        return Err(user_info_status(what, response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| user_info_transport(what, &e))?
    {
        if body.len() + chunk.len() > MAX_API_RESPONSE_BYTES {
            return Err(ProviderError::UserInfo(format!(
                "{what} answered more than {MAX_API_RESPONSE_BYTES} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| user_info_unreadable(what, &e))
}
