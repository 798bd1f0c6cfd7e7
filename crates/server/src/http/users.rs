//! Password accounts and the session endpoints (docs/api.md#register).

use super::AppState;
use super::dto::{
    AuditEventRead, ExportRead, LoginRequest, LoginResponse, RefreshRequest, RegisterRequest,
    SessionRead, UserRead,
};
use super::error::{ApiError, Problem, ProblemAt};
use super::extract::{ApiJson, CurrentSession, PathId, RequestOrigin};
use super::rate_limit::Limit;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use social_login_app::Registration;
use social_login_domain::SecretText;
use social_login_domain::{EventsView, FamilyId};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The user resource: registration, password login and the session's tokens (limited per
/// IP), and the caller's own account.
pub(super) fn routes(limit: &Limit) -> OpenApiRouter<AppState> {
    let public = OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(refresh))
        .routes(routes!(logout));
    limit
        .apply(public)
        .routes(routes!(me, delete_me))
        .routes(routes!(events))
        .routes(routes!(sessions))
        .routes(routes!(export))
        .routes(routes!(end_session))
}

/// Register with email and password.
#[utoipa::path(post, path = "/auth/register", tag = "password",
    request_body = RegisterRequest,
    responses((status = 201, body = LoginResponse), ProblemAt<409>, ProblemAt<422>,
        (status = 403, body = Problem, content_type = "application/problem+json",
            description = "SignupNotAllowed: password sign-up is off ([signup] password = false)")))]
pub async fn register(
    State(state): State<AppState>,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<RegisterRequest>,
) -> Result<(StatusCode, Json<LoginResponse>), ApiError> {
    let result = state
        .service
        .register(
            Registration {
                email: request.email,
                password: SecretText::new(request.password),
                full_name: request.full_name,
            },
            &origin,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(result.into())))
}

/// Log in with email and password.
#[utoipa::path(post, path = "/auth/login", tag = "password",
    request_body = LoginRequest,
    responses((status = 200, body = LoginResponse), ProblemAt<401>,
        (status = 429, body = Problem, content_type = "application/problem+json",
            description = "RateLimited: five failed attempts for this email from this client \
                within 15 minutes; Retry-After says when the window closes")))]
pub async fn login(
    State(state): State<AppState>,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<LoginRequest>,
) -> Result<Json<LoginResponse>, ApiError> {
    let paced = state
        .service
        .password_login(&request.email, SecretText::new(request.password), &origin)
        .await;
    // A slowed attempt (the account is past its failures from anywhere) waits here, on a
    // timer: no thread and no hasher slot is held meanwhile.
    if let Ok(delay) = std::time::Duration::try_from(paced.delay) {
        tokio::time::sleep(delay).await;
    }
    Ok(Json(paced.outcome?.into()))
}

/// Exchange a refresh token for new tokens; the old refresh token stops working.
#[utoipa::path(post, path = "/auth/refresh", tag = "session",
    request_body = RefreshRequest,
    responses((status = 200, body = LoginResponse), ProblemAt<401>))]
pub async fn refresh(
    State(state): State<AppState>,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<RefreshRequest>,
) -> Result<Json<LoginResponse>, ApiError> {
    let result = state
        .service
        .refresh(&request.refresh_token, &origin)
        .await?;
    Ok(Json(result.into()))
}

/// End the session of a refresh token.
#[utoipa::path(post, path = "/auth/logout", tag = "session",
    request_body = RefreshRequest,
    responses((status = 204, description = "logged out")))]
pub async fn logout(
    State(state): State<AppState>,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<RefreshRequest>,
) -> Result<StatusCode, ApiError> {
    state
        .service
        .logout(&request.refresh_token, &origin)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The caller.
#[utoipa::path(get, path = "/users/me", tag = "session",
    responses((status = 200, body = UserRead), ProblemAt<401>),
    security(("bearer" = [])))]
pub async fn me(CurrentSession(caller): CurrentSession) -> Json<UserRead> {
    // The bearer check read the user already.
    Json(UserRead::from(&caller.user))
}

/// The caller's recent audit events, newest first (at most 100).
#[utoipa::path(get, path = "/users/me/events", tag = "session",
    responses((status = 200, body = Vec<AuditEventRead>), ProblemAt<401>),
    security(("bearer" = [])))]
pub async fn events(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
) -> Result<Json<Vec<AuditEventRead>>, ApiError> {
    let events = state.service.events(caller.user.id).await?;
    Ok(Json(events.iter().map(AuditEventRead::from).collect()))
}

/// Everything the service holds about the caller, as one document: the user, linked
/// accounts, sessions and audit events; never a token or a password hash.
#[utoipa::path(get, path = "/users/me/export", tag = "session",
    responses((status = 200, body = ExportRead), ProblemAt<401>),
    security(("bearer" = [])))]
pub async fn export(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
) -> Result<Json<ExportRead>, ApiError> {
    let export = state
        .service
        .export(caller.user.id, EventsView::Own)
        .await?;
    Ok(Json(ExportRead::from(&export)))
}

/// The caller's live sessions, newest use first (at most 100).
#[utoipa::path(get, path = "/users/me/sessions", tag = "session",
    responses((status = 200, body = Vec<SessionRead>), ProblemAt<401>),
    security(("bearer" = [])))]
pub async fn sessions(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
) -> Result<Json<Vec<SessionRead>>, ApiError> {
    let sessions = state.service.sessions(&caller.access).await?;
    Ok(Json(sessions.iter().map(SessionRead::from).collect()))
}

/// End one of the caller's sessions: its refresh token stops working at once, on every
/// instance; its access tokens live out their minutes, as after a logout.
#[utoipa::path(delete, path = "/users/me/sessions/{id}", tag = "session",
    params(("id" = String, Path, description = "a session id from GET /users/me/sessions")),
    responses((status = 204, description = "ended"), ProblemAt<401>,
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "NotFound: not a live session of the caller")),
    security(("bearer" = [])))]
pub async fn end_session(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
    RequestOrigin(origin): RequestOrigin,
    PathId(session): PathId<FamilyId>,
) -> Result<StatusCode, ApiError> {
    state
        .service
        .end_session(caller.user.id, session, &origin)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Delete the caller's account: its links and sessions go too, and each link's grant is
/// revoked at its provider (best effort). Needs a recent login (`[tokens]
/// reauthentication_seconds`); a refresh is not a login.
#[utoipa::path(delete, path = "/users/me", tag = "session",
    responses(
        (status = 204, description = "deleted"),
        (status = 401, body = Problem, content_type = "application/problem+json",
            description = "no valid bearer token (`Unauthorized`), or its session's login is not recent (`ReauthenticationRequired`)"),
    ),
    security(("bearer" = [])))]
pub async fn delete_me(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
    RequestOrigin(origin): RequestOrigin,
) -> Result<StatusCode, ApiError> {
    state.service.delete_account(caller.access, &origin).await?;
    Ok(StatusCode::NO_CONTENT)
}
