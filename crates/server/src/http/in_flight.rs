//! `http.max_in_flight`: a cap on the requests handled at once, shedding the rest at once.
//!
//! A request is counted once its body is read (`body::read_whole` runs first, under its own
//! deadline): a client that sends its body slowly, or not at all, holds no slot, so it cannot
//! make the service answer 503 to everyone else. Past the cap a request is answered 503
//! `ServiceUnavailable` with `Retry-After`: no queue forms.

use super::error::ApiError;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use social_login_domain::ErrorCode;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Liveness must answer even when the service is saturated, or an orchestrator restarts a
/// process that is merely busy. It does no I/O.
const EXEMPT_PATH: &str = "/healthz";

/// The shared slots of one router.
#[derive(Debug, Clone)]
pub struct InFlight(Arc<Semaphore>);

impl InFlight {
    pub fn new(max: usize) -> Self {
        Self(Arc::new(Semaphore::new(
            max.clamp(1, Semaphore::MAX_PERMITS),
        )))
    }
}

pub async fn limit<F>(
    InFlight(slots): &InFlight,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response
where
    F: Future<Output = Response>,
{
    if request.uri().path() == EXEMPT_PATH {
        return next(request).await;
    }
    let Ok(_slot) = slots.try_acquire() else {
        // The body was read: the connection stays usable for the retry.
        return ApiError::new(
            ErrorCode::ServiceUnavailable,
            "the service is at capacity; retry later",
        )
        .into_response();
    };
    next(request).await
}
