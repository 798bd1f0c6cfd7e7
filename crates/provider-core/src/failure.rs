//! Turning library failures into `ProviderError`s whose messages are safe to log.
//!
//! Nothing here ever formats a response body, a URL or a library error's `Display`: bodies
//! carry tokens, URLs may carry codes (and Facebook's carry an access token), and library
//! messages may quote either. Messages name the step and the kind of failure only.

use oauth2::RequestTokenError;
use oauth2::basic::BasicErrorResponse;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use social_login_ports::ProviderError;
use std::fmt;

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
    /// An `error` member (or Slack's `"ok": false`), sanitised, and the answer's status.
    #[error("token endpoint answered error `{code}`")]
    ErrorMember { code: String, status: u16 },
    #[error("token endpoint answered HTTP {0}")]
    Status(u16),
}

/// A call that got no answer to read. Messages name what happened, never a URL or a body,
/// and follow the endpoint's name: "userinfo endpoint timed out".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The request could not be built (reqwest's builder failed); reqwest said "request
    /// failed" of it.
    #[error("request failed")]
    Unbuildable,
    /// The kind of transport failure, as a fixed phrase ("timed out").
    #[error("{0}")]
    Transport(&'static str),
    #[error("answered more than {0} bytes")]
    TooLarge(usize),
}

/// Longest provider error code repeated in a log message.
const MAX_CODE_LEN: usize = 64;

/// The kind of transport failure, as a fixed phrase ("timed out", "refused the connection").
pub fn transport_failure(error: &reqwest::Error) -> &'static str {
    if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "could not be reached"
    } else if error.is_body() || error.is_decode() {
        "sent an unreadable body"
    } else if error.is_redirect() {
        "answered a redirect"
    } else {
        "request failed"
    }
}

/// Whether `code` looks like a provider error code (`bad_verification_code`): short, and
/// letters, digits, `_`, `-` and `.` only.
pub fn is_plain_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= MAX_CODE_LEN
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// A provider error code if it looks like one (`bad_verification_code`), else a placeholder.
pub fn safe_error_code(code: &str) -> String {
    if is_plain_code(code) {
        code.to_owned()
    } else {
        "unrecognised error code".to_owned()
    }
}

/// The error type oauth2 returns from a code exchange through [`crate::TokenHttp`].
pub type TokenRequestError = RequestTokenError<TokenHttpError, BasicErrorResponse>;

/// Maps a failed code exchange to `ProviderError::CodeExchange`.
pub fn code_exchange_failure(error: TokenRequestError) -> ProviderError {
    let detail = match error {
        RequestTokenError::ServerResponse(response) => {
            format!(
                "token endpoint answered error `{}`",
                safe_error_code(response.error().as_ref())
            )
        }
        RequestTokenError::Request(http) => http.to_string(),
        // The body of an unparseable response may hold a token: only say it did not parse.
        RequestTokenError::Parse(_, _) => {
            "token endpoint answered an unreadable response".to_owned()
        }
        RequestTokenError::Other(_) => "token endpoint answered an unexpected response".to_owned(),
    };
    ProviderError::CodeExchange(detail)
}

/// `ProviderError::UserInfo` for a call of `what` ("profile endpoint") that got no answer
/// to read ("profile endpoint timed out").
pub fn user_info_unanswered(what: &str, error: SendError) -> ProviderError {
    ProviderError::UserInfo(format!("{what} {error}"))
}

/// `ProviderError::UserInfo` for a non-success HTTP status of `what`.
pub fn user_info_status(what: &str, status: reqwest::StatusCode) -> ProviderError {
    ProviderError::UserInfo(format!("{what} answered HTTP {}", status.as_u16()))
}

/// `ProviderError::UserInfo` for a body of `what` that is not the expected JSON. Only the
/// position is kept: serde's messages quote the offending value.
pub fn user_info_unreadable(what: &str, error: &serde_json::Error) -> ProviderError {
    ProviderError::UserInfo(format!(
        "{what} answered a body that is not the expected JSON (line {}, column {})",
        error.line(),
        error.column()
    ))
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
    use oauth2::StandardErrorResponse;
    use oauth2::basic::BasicErrorResponseType;

    #[test]
    fn plain_error_codes_are_kept_and_anything_else_is_replaced() {
        assert_eq!(safe_error_code("invalid_grant"), "invalid_grant");
        assert_eq!(safe_error_code("gho_abc def"), "unrecognised error code");
        assert_eq!(safe_error_code(&"a".repeat(65)), "unrecognised error code");
        assert_eq!(safe_error_code(""), "unrecognised error code");
    }

    #[test]
    fn a_server_error_response_names_its_code() {
        let response = StandardErrorResponse::new(
            BasicErrorResponseType::InvalidGrant,
            Some("code abc123 is expired".into()),
            None,
        );
        let error = code_exchange_failure(RequestTokenError::ServerResponse(response));
        assert_eq!(
            error,
            ProviderError::CodeExchange("token endpoint answered error `invalid_grant`".into())
        );
        assert!(!error.to_string().contains("abc123"));
    }

    #[test]
    fn free_text_from_oauth2_is_not_repeated() {
        // oauth2 builds `Other` messages from response details; they are dropped.
        let error = code_exchange_failure(RequestTokenError::Other("gho_leak in body".into()));
        assert!(matches!(&error, ProviderError::CodeExchange(m) if !m.contains("gho_leak")));
    }

    #[test]
    fn a_transport_failure_is_a_code_exchange_failure() {
        let error = code_exchange_failure(RequestTokenError::Request(TokenHttpError::Transport(
            "timed out",
        )));
        assert_eq!(
            error,
            ProviderError::CodeExchange("token endpoint timed out".into())
        );
    }
}
