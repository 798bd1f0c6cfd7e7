//! Operations endpoints: liveness, readiness, metrics, the OpenAPI document.

use super::AppState;
use super::error::{ApiError, ProblemAt};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use social_login_domain::ErrorCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The operations resource: liveness, readiness, metrics, the API's description.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
        .routes(routes!(openapi))
}

/// The process is alive.
#[utoipa::path(get, path = "/healthz", tag = "ops", responses((status = 200, description = "alive")))]
pub async fn healthz() -> StatusCode {
    StatusCode::OK
}

/// The database and the state store answer, and the service is not stopping.
#[utoipa::path(get, path = "/readyz", tag = "ops", responses(
    (status = 200, description = "ready"), ProblemAt<503>))]
pub async fn readyz(State(state): State<AppState>) -> Result<StatusCode, ApiError> {
    if state.draining.is_set() {
        return Err(ApiError::of(ErrorCode::ServiceUnavailable));
    }
    match state.service.ready().await {
        Ok(()) => Ok(StatusCode::OK),
        Err(error) => {
            tracing::warn!(cause = %error, "not ready");
            Err(ApiError::of(ErrorCode::ServiceUnavailable))
        }
    }
}

/// Prometheus text format.
#[utoipa::path(get, path = "/metrics", tag = "ops", responses((status = 200, content_type = "text/plain")))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
}

/// This document (OpenAPI 3.1).
#[utoipa::path(get, path = "/openapi.json", tag = "ops", responses((status = 200, content_type = "application/json")))]
pub async fn openapi(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        state.openapi.clone(),
    )
}

/// Whether the service is stopping: set on the shutdown signal, for `[server]
/// shutdown_delay_seconds` before it stops accepting, so the balancer sees it unready and
/// stops sending while requests are still taken.
#[derive(Debug, Clone, Default)]
pub struct Draining(Arc<AtomicBool>);

impl Draining {
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
