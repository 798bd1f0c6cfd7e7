//! The provider endpoints of docs/api.md#endpoints, and the list of enabled providers.

use super::AppState;
use super::dto::{
    AuthorizeResponse, CallbackRequest, LinkedAccountRead, LoginResponse, ProviderRead,
};
use super::error::{ApiError, Problem};
use super::extract::{
    ApiJson, CurrentSession, CurrentUser, OptionalBearer, ProviderPath, RequestOrigin,
};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use social_login_app::ProviderReturn;
use social_login_ports::PostBody;

/// The enabled providers, in configuration order: what sign-in buttons are made from.
#[utoipa::path(get, path = "/auth/oauth/providers", tag = "oauth",
    responses((status = 200, body = Vec<ProviderRead>)))]
pub async fn providers(State(state): State<AppState>) -> Json<Vec<ProviderRead>> {
    let providers = state.service.providers();
    Json(providers.iter().map(ProviderRead::from).collect())
}

/// Start a login, or a connect when a valid bearer token is sent (its session's login must
/// be recent, else 401 `ReauthenticationRequired`).
#[utoipa::path(get, path = "/auth/oauth/{provider}/authorize", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    responses(
        (status = 200, body = AuthorizeResponse),
        (status = 401, body = Problem, content_type = "application/problem+json",
            description = "ReauthenticationRequired: a connect needs a recent login"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
pub async fn authorize(
    State(state): State<AppState>,
    ProviderPath(provider): ProviderPath,
    OptionalBearer(bearer): OptionalBearer,
) -> Result<Json<AuthorizeResponse>, ApiError> {
    let provider = state.service.enabled_provider(&provider)?;
    let authorization_url = state.service.authorize(provider, bearer.as_deref()).await?;
    Ok(Json(AuthorizeResponse { authorization_url }))
}

/// Log in or register with the code the provider returned.
#[utoipa::path(post, path = "/auth/oauth/{provider}/callback", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    request_body = CallbackRequest,
    responses(
        (status = 200, body = LoginResponse),
        (status = 400, body = Problem, content_type = "application/problem+json"),
        (status = 403, body = Problem, content_type = "application/problem+json",
            description = "ProviderAccountDisabled: the provider reported this account \
                disabled; SignupNotAllowed: the account is linked to nobody and this provider's \
                allow_signup is false; EmailDomainNotAllowed: a new user needs a verified email \
                (for google also the hd claim) in the provider's allowed_email_domains"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, body = Problem, content_type = "application/problem+json"),
        (status = 502, body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn callback(
    State(state): State<AppState>,
    ProviderPath(provider): ProviderPath,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<CallbackRequest>,
) -> Result<Json<LoginResponse>, ApiError> {
    let ret = provider_return(&state, &provider, &request)?;
    let result = state.service.callback(ret, &origin).await?;
    Ok(Json(result.into()))
}

/// Link a provider account to the caller; needs a recent login (401
/// `ReauthenticationRequired`).
#[utoipa::path(post, path = "/auth/oauth/{provider}/connect", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    request_body = CallbackRequest,
    responses(
        (status = 201, body = LinkedAccountRead),
        (status = 400, body = Problem, content_type = "application/problem+json"),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, body = Problem, content_type = "application/problem+json"),
        (status = 502, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
pub async fn connect(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
    ProviderPath(provider): ProviderPath,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<CallbackRequest>,
) -> Result<(StatusCode, Json<LinkedAccountRead>), ApiError> {
    let ret = provider_return(&state, &provider, &request)?;
    let link = state.service.connect(caller.access, ret, &origin).await?;
    Ok((StatusCode::CREATED, Json(LinkedAccountRead::from(&link))))
}

/// The caller's linked accounts.
#[utoipa::path(get, path = "/auth/oauth/accounts", tag = "oauth",
    responses(
        (status = 200, body = Vec<LinkedAccountRead>),
        (status = 401, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
pub async fn accounts(
    State(state): State<AppState>,
    CurrentUser(caller): CurrentUser,
) -> Result<Json<Vec<LinkedAccountRead>>, ApiError> {
    let links = state.service.accounts(caller).await?;
    Ok(Json(links.iter().map(LinkedAccountRead::from).collect()))
}

/// Unlink a provider from the caller.
#[utoipa::path(delete, path = "/auth/oauth/{provider}/disconnect", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    responses(
        (status = 204, description = "unlinked"),
        (status = 400, body = Problem, content_type = "application/problem+json"),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
pub async fn disconnect(
    State(state): State<AppState>,
    CurrentUser(caller): CurrentUser,
    ProviderPath(provider): ProviderPath,
    RequestOrigin(origin): RequestOrigin,
) -> Result<StatusCode, ApiError> {
    let provider = state.service.enabled_provider(&provider)?;
    state.service.disconnect(caller, provider, &origin).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `post_body` goes to the provider's adapter as it came: what it means is the adapter's
/// business (Apple reads the first login's name from it, the others ignore it).
/// 404 for the provider, then 422 for the fields; `post_body` goes to the adapter as it came.
fn provider_return(
    state: &AppState,
    provider: &str,
    request: &CallbackRequest,
) -> Result<ProviderReturn, ApiError> {
    let post_body = request
        .post_body
        .as_ref()
        .map(|body| PostBody::new(body.to_string()));
    Ok(state
        .service
        .provider_return(provider, &request.code, &request.state, post_body)?)
}
