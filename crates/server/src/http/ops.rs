//! Operations endpoints: liveness, readiness, metrics, the OpenAPI document.

use super::AppState;
use super::error::{ApiError, ProblemAt};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use social_login_domain::ErrorCode;
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

/// The database and the state store answer.
#[utoipa::path(get, path = "/readyz", tag = "ops", responses(
    (status = 200, description = "ready"), ProblemAt<503>))]
pub async fn readyz(State(state): State<AppState>) -> Result<StatusCode, ApiError> {
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
