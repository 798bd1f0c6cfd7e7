//! The one API error: RFC 9457 problem details with the stable `code` (docs/api.md, "Errors").

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use social_login_app::AppError;
use social_login_domain::ErrorCode;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response as ApiResponse, ResponseBuilder};

/// A client-visible failure. `cause` is logged for 5xx and never sent.
#[derive(Debug)]
pub struct ApiError {
    pub code: ErrorCode,
    pub detail: String,
    pub retry_after_seconds: Option<u64>,
    cause: Option<String>,
    /// Answered before the request body was read to its end: `Connection: close`, so the
    /// client does not send its next request on a connection the server is closing.
    close_connection: bool,
    /// Where a use case's error answers a code with another status than its usual one.
    status: Option<StatusCode>,
}

/// `Retry-After` of every 503: overload (shed requests, busy password hashing) passes in
/// about a second, and a client that retries a dependency outage once a second costs little.
const UNAVAILABLE_RETRY_AFTER_SECONDS: u64 = 1;

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct Problem {
    /// Always `about:blank`: `code` carries the meaning.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub title: &'static str,
    pub status: u16,
    /// Stable, machine-readable name of the error.
    pub code: &'static str,
    pub detail: String,
}

/// A problem+json answer at `STATUS` that needs no words of its own, for a path's
/// `responses(...)`: `ProblemAt<404>` is `(status = 404, body = Problem, content_type =
/// "application/problem+json")`, written once.
pub struct ProblemAt<const STATUS: u16>;

impl<const STATUS: u16> utoipa::IntoResponses for ProblemAt<STATUS> {
    fn responses() -> BTreeMap<String, RefOr<ApiResponse>> {
        problem_response(STATUS, "")
    }
}

/// The problem+json answer at `status` that `description` explains, as an
/// [`utoipa::IntoResponses`] implementation hands it to a path's `responses(...)`.
pub fn problem_response(status: u16, description: &str) -> BTreeMap<String, RefOr<ApiResponse>> {
    let body = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name(Problem::name())))
        .build();
    let response = ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", body)
        .build();
    BTreeMap::from([(status.to_string(), RefOr::T(response))])
}

/// The 403s of a sign-in through a provider, by code or by id_token.
pub struct SignInRefused;

impl utoipa::IntoResponses for SignInRefused {
    fn responses() -> BTreeMap<String, RefOr<ApiResponse>> {
        problem_response(
            403,
            "ProviderAccountDisabled: the provider reported this account disabled; \
             SignupNotAllowed: the account is linked to nobody and this provider's allow_signup \
             is false; EmailDomainNotAllowed: a new user needs a verified email (for google also \
             the hd claim) in the provider's allowed_email_domains",
        )
    }
}

impl ApiError {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self {
            code,
            detail: detail.into(),
            retry_after_seconds: None,
            cause: None,
            close_connection: false,
            status: None,
        }
    }

    /// The error with its standard detail text.
    pub fn of(code: ErrorCode) -> Self {
        Self::new(code, default_detail(code))
    }

    pub fn validation(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::ValidationError, detail)
    }

    pub fn rate_limited(retry_after_seconds: u64) -> Self {
        Self {
            retry_after_seconds: Some(retry_after_seconds.max(1)),
            ..Self::of(ErrorCode::RateLimited)
        }
    }

    /// The same error, sent with `Connection: close`.
    pub fn closing_connection(self) -> Self {
        Self {
            close_connection: true,
            ..self
        }
    }

    pub fn status(&self) -> StatusCode {
        self.status.unwrap_or_else(|| status_of(self.code))
    }
}

impl From<AppError> for ApiError {
    fn from(error: AppError) -> Self {
        let code = error.code();
        match error {
            AppError::Validation(detail) => Self::validation(detail),
            AppError::RateLimited {
                retry_after_seconds,
            } => Self::rate_limited(retry_after_seconds),
            AppError::StateMismatch(reason) => Self {
                cause: Some(reason.to_string()),
                ..Self::of(code)
            },
            // Which check failed is safe to tell the sender (it never repeats the signal)
            // and is what an operator registering an endpoint needs to see.
            AppError::InvalidSignal(refused) => Self::new(
                code,
                format!("the signal could not be verified: {}", refused.detail),
            ),
            // The operator's unlink: 409, where the user's disconnect answers 400.
            AppError::LastLoginMethodNeedsForce => Self {
                status: Some(StatusCode::CONFLICT),
                ..Self::of(code)
            },
            other => Self {
                cause: Some(cause_chain(&other)),
                ..Self::of(code)
            },
        }
    }
}

/// `error` and each of its sources, outermost first: what the one log line of a failed
/// request says of its cause.
fn cause_chain(error: &dyn std::error::Error) -> String {
    let mut chain = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        chain.push_str(": ");
        chain.push_str(&cause.to_string());
        source = cause.source();
    }
    chain
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let cause = self.cause.as_deref().unwrap_or("-");
        if status.is_server_error() {
            tracing::error!(code = %self.code, cause, "request failed");
        } else {
            tracing::info!(code = %self.code, cause, "request refused");
        }
        let problem = Problem {
            kind: "about:blank",
            title: title_of(self.code),
            status: status.as_u16(),
            code: self.code.as_str(),
            detail: self.detail,
        };
        let mut response = (status, axum::Json(problem)).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        let retry_after = self
            .retry_after_seconds
            .or((status == StatusCode::SERVICE_UNAVAILABLE)
                .then_some(UNAVAILABLE_RETRY_AFTER_SECONDS));
        if let Some(seconds) = retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if self.close_connection {
            headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// The HTTP status of every code (docs/api.md#error-codes).
/// The problem+json body of `code` with its standard detail: what a response of it carries,
/// for an answer written below the router (a malformed request head).
pub fn standard_problem_body(code: ErrorCode) -> Vec<u8> {
    let problem = Problem {
        kind: "about:blank",
        title: title_of(code),
        status: status_of(code).as_u16(),
        code: code.as_str(),
        detail: default_detail(code).to_owned(),
    };
    serde_json::to_vec(&problem).expect("a problem serialises")
}

pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::OAuthProviderNotConfigured => StatusCode::NOT_FOUND,
        ErrorCode::OAuthStateMismatch => StatusCode::BAD_REQUEST,
        ErrorCode::OAuthCodeExchangeFailed => StatusCode::BAD_GATEWAY,
        ErrorCode::OAuthUserInfoFailed => StatusCode::BAD_GATEWAY,
        ErrorCode::IdTokenNotSupported => StatusCode::BAD_REQUEST,
        ErrorCode::EmailAlreadyRegistered => StatusCode::CONFLICT,
        ErrorCode::ProviderAlreadyLinked => StatusCode::CONFLICT,
        ErrorCode::OAuthAccountNotFound => StatusCode::NOT_FOUND,
        ErrorCode::LastLoginMethod => StatusCode::BAD_REQUEST,
        ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorCode::InvalidCredentials => StatusCode::UNAUTHORIZED,
        ErrorCode::ReauthenticationRequired => StatusCode::UNAUTHORIZED,
        ErrorCode::InvalidSignal => StatusCode::BAD_REQUEST,
        ErrorCode::ProviderAccountDisabled => StatusCode::FORBIDDEN,
        ErrorCode::SignupNotAllowed => StatusCode::FORBIDDEN,
        ErrorCode::EmailDomainNotAllowed => StatusCode::FORBIDDEN,
        ErrorCode::UserLocked => StatusCode::FORBIDDEN,
        ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        ErrorCode::ValidationError => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::MalformedRequest => StatusCode::BAD_REQUEST,
        ErrorCode::UriTooLong => StatusCode::URI_TOO_LONG,
        ErrorCode::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        // `ErrorCode` is non-exhaustive for other crates; a code added to the domain without
        // a line here is a 500 until it gets one (`every_code_has_the_contract_status`
        // fails first).
        ErrorCode::InternalError | _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn title_of(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::OAuthProviderNotConfigured => "OAuth provider not configured",
        ErrorCode::OAuthStateMismatch => "OAuth state mismatch",
        ErrorCode::OAuthCodeExchangeFailed => "OAuth code exchange failed",
        ErrorCode::OAuthUserInfoFailed => "OAuth user info failed",
        ErrorCode::IdTokenNotSupported => "ID token not supported",
        ErrorCode::EmailAlreadyRegistered => "Email already registered",
        ErrorCode::ProviderAlreadyLinked => "Provider already linked",
        ErrorCode::OAuthAccountNotFound => "OAuth account not found",
        ErrorCode::LastLoginMethod => "Last login method",
        ErrorCode::Unauthorized => "Unauthorized",
        ErrorCode::InvalidCredentials => "Invalid credentials",
        ErrorCode::ReauthenticationRequired => "Reauthentication required",
        ErrorCode::InvalidSignal => "Invalid signal",
        ErrorCode::ProviderAccountDisabled => "Provider account disabled",
        ErrorCode::SignupNotAllowed => "Sign-up not allowed",
        ErrorCode::EmailDomainNotAllowed => "Email domain not allowed",
        ErrorCode::UserLocked => "User locked",
        ErrorCode::PayloadTooLarge => "Payload too large",
        ErrorCode::RequestTimeout => "Request timeout",
        ErrorCode::ValidationError => "Validation error",
        ErrorCode::NotFound => "Not found",
        ErrorCode::MethodNotAllowed => "Method not allowed",
        ErrorCode::RateLimited => "Too many requests",
        ErrorCode::ServiceUnavailable => "Service unavailable",
        ErrorCode::MalformedRequest => "Malformed request",
        ErrorCode::UriTooLong => "URI too long",
        ErrorCode::HeadersTooLarge => "Request header fields too large",
        ErrorCode::InternalError | _ => "Internal error",
    }
}

fn default_detail(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::OAuthProviderNotConfigured => "provider is unknown or not enabled",
        ErrorCode::OAuthStateMismatch => "state value is unknown, expired or not for this flow",
        ErrorCode::OAuthCodeExchangeFailed => "the provider rejected the code exchange",
        ErrorCode::OAuthUserInfoFailed => "fetching user info from the provider failed",
        ErrorCode::IdTokenNotSupported => "this provider offers no sign-in with an id_token",
        ErrorCode::EmailAlreadyRegistered => {
            "the email belongs to an existing user; log in and connect this provider"
        }
        ErrorCode::ProviderAlreadyLinked => "this provider account is already linked",
        ErrorCode::OAuthAccountNotFound => "provider is not linked to this user",
        ErrorCode::LastLoginMethod => "disconnecting would leave no way to log in",
        ErrorCode::Unauthorized => "a valid bearer token is required",
        ErrorCode::InvalidCredentials => "the credentials are invalid",
        ErrorCode::ReauthenticationRequired => {
            "log in again: this needs a recent login, and a refresh is not one"
        }
        ErrorCode::InvalidSignal => "the signal could not be verified",
        ErrorCode::ProviderAccountDisabled => {
            "the provider reported this account disabled; log in another way"
        }
        ErrorCode::SignupNotAllowed => {
            "sign-up is closed here; an existing user can log in and connect this account"
        }
        ErrorCode::EmailDomainNotAllowed => {
            "sign-up here needs a verified email of an allowed domain"
        }
        ErrorCode::UserLocked => "an operator locked this account; contact support",
        ErrorCode::PayloadTooLarge => "request body is too large",
        ErrorCode::RequestTimeout => "the request took too long; the connection is closed",
        ErrorCode::ValidationError => "request is invalid",
        ErrorCode::NotFound => "no such endpoint",
        ErrorCode::MethodNotAllowed => "this endpoint does not accept this method",
        ErrorCode::RateLimited => "too many requests; retry later",
        ErrorCode::ServiceUnavailable => "a dependency is unavailable; retry later",
        ErrorCode::MalformedRequest => "the request is not well-formed HTTP/1.1",
        ErrorCode::UriTooLong => "the request URI is too long",
        ErrorCode::HeadersTooLarge => "the request's headers are too large",
        ErrorCode::InternalError | _ => "internal error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_the_contract_status() {
        let expected = [
            (ErrorCode::OAuthProviderNotConfigured, 404),
            (ErrorCode::OAuthStateMismatch, 400),
            (ErrorCode::OAuthCodeExchangeFailed, 502),
            (ErrorCode::OAuthUserInfoFailed, 502),
            (ErrorCode::IdTokenNotSupported, 400),
            (ErrorCode::EmailAlreadyRegistered, 409),
            (ErrorCode::ProviderAlreadyLinked, 409),
            (ErrorCode::OAuthAccountNotFound, 404),
            (ErrorCode::LastLoginMethod, 400),
            (ErrorCode::Unauthorized, 401),
            (ErrorCode::InvalidCredentials, 401),
            (ErrorCode::ReauthenticationRequired, 401),
            (ErrorCode::InvalidSignal, 400),
            (ErrorCode::ProviderAccountDisabled, 403),
            (ErrorCode::SignupNotAllowed, 403),
            (ErrorCode::EmailDomainNotAllowed, 403),
            (ErrorCode::UserLocked, 403),
            (ErrorCode::PayloadTooLarge, 413),
            (ErrorCode::RequestTimeout, 408),
            (ErrorCode::ValidationError, 422),
            (ErrorCode::NotFound, 404),
            (ErrorCode::MethodNotAllowed, 405),
            (ErrorCode::RateLimited, 429),
            (ErrorCode::ServiceUnavailable, 503),
            (ErrorCode::InternalError, 500),
            (ErrorCode::MalformedRequest, 400),
            (ErrorCode::UriTooLong, 414),
            (ErrorCode::HeadersTooLarge, 431),
        ];
        assert_eq!(expected.len(), ErrorCode::ALL.len());
        for (code, status) in expected {
            assert_eq!(status_of(code).as_u16(), status, "{code}");
        }
    }

    #[test]
    fn every_503_says_when_to_retry() {
        for error in [
            ApiError::of(ErrorCode::ServiceUnavailable),
            ApiError::from(AppError::Unavailable("database down".into())),
        ] {
            let response = error.into_response();
            assert_eq!(response.status(), 503);
            assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        }
    }

    #[test]
    fn an_account_throttle_answers_429_with_its_retry_after() {
        let response = ApiError::from(AppError::RateLimited {
            retry_after_seconds: 840,
        })
        .into_response();
        assert_eq!(response.status(), 429);
        assert_eq!(response.headers()[header::RETRY_AFTER], "840");
    }

    #[test]
    fn only_errors_sent_before_the_body_was_read_close_the_connection() {
        let kept = ApiError::of(ErrorCode::PayloadTooLarge).into_response();
        assert!(kept.headers().get(header::CONNECTION).is_none());
        let closed = ApiError::of(ErrorCode::PayloadTooLarge)
            .closing_connection()
            .into_response();
        assert_eq!(closed.headers()[header::CONNECTION], "close");
        assert_eq!(closed.status(), 413);
    }

    #[test]
    fn a_cause_keeps_its_chain_for_the_log() {
        let error = AppError::from(social_login_ports::RepositoryError::Unavailable(
            "connection refused".into(),
        ));
        assert_eq!(
            cause_chain(&error),
            "dependency unavailable: storage unavailable: connection refused"
        );
    }

    #[test]
    fn internal_causes_are_logged_not_sent() {
        let error = ApiError::from(AppError::Internal("db password=hunter2".into()));
        assert_eq!(error.detail, "internal error");
        let response = error.into_response();
        assert_eq!(response.status(), 500);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "application/problem+json"
        );
    }
}
