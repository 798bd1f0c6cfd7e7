//! The bridge that lets oauth2 5 talk through our reqwest 0.13 client.
//!
//! oauth2's own reqwest support is pinned to reqwest 0.12, so its default features are off
//! and this `AsyncHttpClient` does the call instead. It also enforces two rules every token
//! request needs: a body size cap, and "a JSON object with an `error` member is a failure
//! whatever the HTTP status" (GitHub answers errors with HTTP 200). A failure status
//! without such a member is reported by its number rather than as an unparseable body.

use crate::failure::{safe_error_code, transport_failure};
use oauth2::{AsyncHttpClient, HttpRequest, HttpResponse};
use std::future::Future;
use std::pin::Pin;

/// Largest token response we read; real ones are a few kilobytes.
pub const MAX_TOKEN_RESPONSE_BYTES: usize = 256 * 1024;

/// The token endpoint call failed. Messages name what happened, never a body or a URL
/// (a body may carry the token, a URL may carry the code).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenHttpError {
    #[error("token request could not be built")]
    InvalidRequest,
    #[error("token endpoint {0}")]
    Transport(&'static str),
    #[error("token response larger than {MAX_TOKEN_RESPONSE_BYTES} bytes")]
    TooLarge,
    #[error("token endpoint answered error `{0}`")]
    ErrorMember(String),
    #[error("token endpoint answered HTTP {0}")]
    Status(u16),
}

/// `reqwest::Client` as an oauth2 HTTP client. Cheap to clone (the pool is shared).
#[derive(Debug, Clone)]
pub struct TokenHttp(pub reqwest::Client);

type ResponseFuture<'c> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TokenHttpError>> + Send + 'c>>;

impl<'c> AsyncHttpClient<'c> for TokenHttp {
    type Error = TokenHttpError;
    type Future = ResponseFuture<'c>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(async move {
            let request =
                reqwest::Request::try_from(request).map_err(|_| TokenHttpError::InvalidRequest)?;
            let mut response = self
                .0
                .execute(request)
                .await
                .map_err(|e| TokenHttpError::Transport(transport_failure(&e)))?;
            let status = response.status();
            let headers = response.headers().clone();
            let body = read_capped(&mut response).await?;
            token_answer(status, &headers, body)
        })
    }
}

/// The answer handed to oauth2 to parse, or the failure it is: an `error` member whatever
/// the status, else a failure status by its number.
pub fn token_answer(
    status: http::StatusCode,
    headers: &http::HeaderMap,
    body: Vec<u8>,
) -> Result<HttpResponse, TokenHttpError> {
    if let Some(code) = error_member(&body) {
        return Err(TokenHttpError::ErrorMember(code));
    }
    if !status.is_success() {
        return Err(TokenHttpError::Status(status.as_u16()));
    }
    let mut answer = http::Response::new(body);
    *answer.status_mut() = status;
    *answer.headers_mut() = headers.clone();
    Ok(answer)
}

/// Reads the body chunk by chunk, refusing to buffer more than the cap.
async fn read_capped(response: &mut reqwest::Response) -> Result<Vec<u8>, TokenHttpError> {
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| TokenHttpError::Transport(transport_failure(&e)))?
    {
        if body.len() + chunk.len() > MAX_TOKEN_RESPONSE_BYTES {
            return Err(TokenHttpError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The `error` member of a JSON object body, sanitised for logs; `None` for anything else.
pub fn error_member(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let error = value.as_object()?.get("error")?;
    // A provider could put anything here; only a plain error code is repeated in logs.
    Some(match error.as_str() {
        Some(code) => safe_error_code(code),
        None => "non-string error member".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_error_member_is_found() {
        let body = br#"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}"#;
        assert_eq!(error_member(body).as_deref(), Some("bad_verification_code"));
    }

    #[test]
    fn a_token_response_without_error_is_not_a_failure() {
        let body = br#"{"access_token":"gho_abc","token_type":"bearer","scope":"read:user"}"#;
        assert_eq!(error_member(body), None);
        assert_eq!(error_member(b"not json"), None);
        assert_eq!(error_member(b"[1,2]"), None);
    }

    #[test]
    fn an_error_member_that_is_not_a_plain_code_is_not_repeated() {
        let body = br#"{"error":"gho_secret token leaked here"}"#;
        let code = error_member(body).unwrap();
        assert!(!code.contains("gho_secret"), "{code}");
        assert_eq!(
            error_member(br#"{"error":{"message":"x"}}"#).as_deref(),
            Some("non-string error member")
        );
    }
}
