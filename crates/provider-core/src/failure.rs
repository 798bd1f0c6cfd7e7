//! Turning library failures into `ProviderError`s whose messages are safe to log.
//!
//! Nothing here ever formats a response body, a URL or a library error's `Display`: bodies
//! carry tokens, URLs may carry codes (and Facebook's carry an access token), and library
//! messages may quote either. Messages name the step and the kind of failure only.

use crate::http_client::SendError;
use crate::token_http::TokenHttpError;
use oauth2::RequestTokenError;
use oauth2::basic::BasicErrorResponse;
use social_login_ports::ProviderError;

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

/// A provider error code if it looks like one (`bad_verification_code`), else a placeholder.
pub fn safe_error_code(code: &str) -> String {
    let plain = !code.is_empty()
        && code.len() <= MAX_CODE_LEN
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    if plain {
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
