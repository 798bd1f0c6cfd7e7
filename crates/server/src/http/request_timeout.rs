//! `http.request_timeout_seconds`: one deadline for reading the body and handling the request.
//!
//! The header deadline is hyper's (`server::connections`); this one starts when the head is in.

use super::error::ApiError;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use social_login_domain::ErrorCode;
use std::time::Duration;

/// 408 `RequestTimeout` past the deadline, and the connection is closed: the body may be half
/// read. Dropping the handler leaves consistent data: each write is a transaction of its
/// own, and a request cut between two of them is one the client retries, as after any lost
/// response.
pub async fn limit<F>(
    timeout: Duration,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response
where
    F: Future<Output = Response>,
{
    match tokio::time::timeout(timeout, next(request)).await {
        Ok(response) => response,
        Err(_elapsed) => ApiError::of(ErrorCode::RequestTimeout)
            .closing_connection()
            .into_response(),
    }
}
