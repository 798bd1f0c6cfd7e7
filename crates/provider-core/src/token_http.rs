//! The bridge that lets oauth2 5 talk through our provider client ([`ProviderHttp`]).
//!
//! oauth2's own reqwest support is pinned to reqwest 0.12, so its default features are off
//! and this `AsyncHttpClient` does the call instead. It also enforces two rules every token
//! request needs: a body size cap, and "a JSON object with an `error` member is a failure
//! whatever the HTTP status" (GitHub answers errors with HTTP 200). A failure status
//! without such a member is reported by its number rather than as an unparseable body.

use crate::failure::safe_error_code;
use crate::http_client::{ProviderHttp, SendError};
use oauth2::{AsyncHttpClient, HttpRequest, HttpResponse};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
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

/// The provider client as an oauth2 HTTP client. Cheap to clone (the pool is shared).
#[derive(Debug, Clone)]
pub struct TokenHttp(pub ProviderHttp);

type ResponseFuture<'c> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TokenHttpError>> + Send + 'c>>;

impl<'c> AsyncHttpClient<'c> for TokenHttp {
    type Error = TokenHttpError;
    type Future = ResponseFuture<'c>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(async move {
            let answer = self
                .0
                .send_http(request, MAX_TOKEN_RESPONSE_BYTES)
                .await
                .map_err(|error| match error {
                    SendError::Unbuildable => TokenHttpError::InvalidRequest,
                    SendError::Transport(kind) => TokenHttpError::Transport(kind),
                    SendError::TooLarge(_) => TokenHttpError::TooLarge,
                })?;
            token_answer(answer.status, answer.headers, answer.body)
        })
    }
}

/// The answer handed to oauth2 to parse, or the failure it is: an `error` member whatever
/// the status, else a failure status by its number.
pub fn token_answer(
    status: http::StatusCode,
    headers: http::HeaderMap,
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
    *answer.headers_mut() = headers;
    Ok(answer)
}

/// The `error` member of a JSON object body, sanitised for logs; `None` for anything else.
pub fn error_member(body: &[u8]) -> Option<String> {
    let ErrorMember(error) = serde_json::from_slice(body).ok()?;
    let error = error?;
    // A provider could put anything here; only a plain error code is repeated in logs.
    Some(match error.as_str() {
        Some(code) => safe_error_code(code),
        None => "non-string error member".to_owned(),
    })
}

/// What `error_member` reads of a body: the `error` member of an object (the last one, as a
/// `serde_json::Value` keeps it), nothing built for the other members. They are still read
/// through, as a `Value` would be (numbers in range, strings well formed), so exactly the
/// bodies a `Value` accepts are accepted; anything but an object is refused.
struct ErrorMember(Option<serde_json::Value>);

impl<'de> Deserialize<'de> for ErrorMember {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = ErrorMember;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ErrorMember, A::Error> {
                let mut error = None;
                while let Some(Checked(key)) = map.next_key::<Checked<bool>>()? {
                    if key {
                        error = Some(map.next_value()?);
                    } else {
                        map.next_value::<Checked<()>>()?;
                    }
                }
                Ok(ErrorMember(error))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// Any JSON value, checked as `serde_json::Value` checks it and dropped; as a key,
/// `Checked<bool>` says whether it is `"error"`.
struct Checked<T>(T);

impl<'de> Deserialize<'de> for Checked<bool> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CheckVisitor)
    }
}

impl<'de> Deserialize<'de> for Checked<()> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(CheckVisitor)
            .map(|_| Checked(()))
    }
}

/// Accepts every JSON value (reading arrays and objects through); true only for the
/// string `error`.
struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Checked<bool>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Checked(text == "error"))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Checked(false))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Checked(false))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Checked(false))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Checked(false))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Checked(false))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        while items.next_element::<Checked<()>>()?.is_some() {}
        Ok(Checked(false))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        while members.next_entry::<Checked<()>, Checked<()>>()?.is_some() {}
        Ok(Checked(false))
    }
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
