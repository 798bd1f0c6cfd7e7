//! The one API error: RFC 9457 problem details with the stable `code` (docs/api.md, "Errors").

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use social_login_app::AppError;
use social_login_domain::ErrorCode;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response as ApiResponse, ResponseBuilder};

/// A client-visible failure. `cause` is logged for 5xx and never sent; `Debug` leaves out the
/// link token.
#[derive(derive_more::Debug)]
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
    /// Where the user connects the provider again (`ProviderReauthorizationRequired`).
    connect_url: Option<String>,
    /// The offer of a login's 409 `EmailAlreadyRegistered` (docs/api.md#finishing-a-link).
    #[debug("{}", link_token.is_some())]
    link_token: Option<String>,
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
    /// `ProviderReauthorizationRequired` only: where the user connects the provider again
    /// (`GET` it with the user's bearer token, as any connect's authorize).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connect_url: Option<String>,
    /// `EmailAlreadyRegistered` of a provider login only: what the user who holds the email
    /// sends to `POST /auth/link/complete`, signed in, to link this provider account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_token: Option<String>,
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
            connect_url: None,
            link_token: None,
        }
    }

    /// The error with its standard detail text.
    pub fn of(code: ErrorCode) -> Self {
        Self::new(code, default_detail(code))
    }

    pub fn validation(detail: impl Into<String>) -> Self {
        Self::new(ErrorCode::ValidationError, detail)
    }

    /// A request the relay refuses before any I/O (a path that could leave its base): 400,
    /// as a malformed URL is, rather than the 422 of a body that does not validate.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self {
            status: Some(StatusCode::BAD_REQUEST),
            ..Self::validation(detail)
        }
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
            AppError::ProviderReauthorizationRequired { provider } => Self {
                connect_url: Some(format!("/auth/oauth/{provider}/authorize?purpose=connect")),
                ..Self::of(code)
            },
            AppError::LinkOffered { link_token } => Self {
                link_token: Some(link_token),
                ..Self::of(code)
            },
            AppError::ProviderUnavailable(why) => Self {
                cause: Some(why),
                ..Self::of(code)
            },
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
/// request says of its cause (and the healthcheck of why it failed).
pub(crate) fn cause_chain(error: &dyn std::error::Error) -> String {
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
            connect_url: self.connect_url,
            link_token: self.link_token,
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
        connect_url: None,
        link_token: None,
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
        ErrorCode::ProviderReauthorizationRequired => StatusCode::CONFLICT,
        ErrorCode::ProviderUnavailable => StatusCode::BAD_GATEWAY,
        ErrorCode::InvalidLinkToken => StatusCode::BAD_REQUEST,
        ErrorCode::LinkTokenNotForYou => StatusCode::FORBIDDEN,
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
        ErrorCode::ProviderReauthorizationRequired => "Provider reauthorization required",
        ErrorCode::ProviderUnavailable => "Provider unavailable",
        ErrorCode::InvalidLinkToken => "Invalid link token",
        ErrorCode::LinkTokenNotForYou => "Link token not for you",
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
        ErrorCode::ProviderReauthorizationRequired => {
            "the provider no longer honours this link's grant; connect the provider again"
        }
        ErrorCode::ProviderUnavailable => "the provider's API could not be reached",
        ErrorCode::InvalidLinkToken => {
            "the link token is not valid: it expired, was used, or was never issued"
        }
        ErrorCode::LinkTokenNotForYou => "this link token was offered to another user",
        ErrorCode::InternalError | _ => "internal error",
    }
}

#[cfg(test)]
mod tests;
