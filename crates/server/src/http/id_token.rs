//! Native sign-in with a provider id_token (docs/api.md#native-sign-in): for apps that receive an id_token
//! on the device (Sign in with Apple, Google Sign-In, MSAL) rather than a code.

use super::AppState;
use super::dto::{IdTokenRequest, LinkedAccountRead, LoginResponse};
use super::error::{ApiError, Problem};
use super::extract::{ApiJson, CurrentSession, ProviderPath, RequestOrigin};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use social_login_app::IdTokenCommand;
use social_login_ports::PostBody;

/// Log in or register with an id_token the app obtained from the provider.
#[utoipa::path(post, path = "/auth/oauth/{provider}/id-token", tag = "oauth",
    params(("provider" = String, Path, description = "provider key: google, microsoft or apple")),
    request_body = IdTokenRequest,
    responses(
        (status = 200, body = LoginResponse),
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "IdTokenNotSupported: the provider issues no id_tokens"),
        (status = 403, body = Problem, content_type = "application/problem+json",
            description = "ProviderAccountDisabled: the provider reported this account \
                disabled; SignupNotAllowed: the account is linked to nobody and this provider's \
                allow_signup is false; EmailDomainNotAllowed: a new user needs a verified email \
                (for google also the hd claim) in the provider's allowed_email_domains"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: id_token missing or too long, nonce missing \
                where the provider requires it, or authorization_code for a provider other \
                than apple"),
        (status = 502, body = Problem, content_type = "application/problem+json",
            description = "OAuthUserInfoFailed: the id_token did not verify, or was used \
                before; OAuthCodeExchangeFailed: Apple refused the authorization_code \
                (nobody is signed in)"),
    ))]
pub async fn sign_in(
    State(state): State<AppState>,
    ProviderPath(provider): ProviderPath,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<IdTokenRequest>,
) -> Result<Json<LoginResponse>, ApiError> {
    let command = command(&state, &provider, request)?;
    let result = state.service.id_token_sign_in(command, &origin).await?;
    Ok(Json(result.into()))
}

/// Link the provider account an app's id_token is about to the caller; needs a recent
/// login (401 `ReauthenticationRequired`).
#[utoipa::path(post, path = "/auth/oauth/{provider}/id-token/connect", tag = "oauth",
    params(("provider" = String, Path, description = "provider key: google, microsoft or apple")),
    request_body = IdTokenRequest,
    responses(
        (status = 201, body = LinkedAccountRead),
        (status = 400, body = Problem, content_type = "application/problem+json"),
        (status = 401, body = Problem, content_type = "application/problem+json"),
        (status = 404, body = Problem, content_type = "application/problem+json"),
        (status = 409, body = Problem, content_type = "application/problem+json"),
        (status = 422, body = Problem, content_type = "application/problem+json"),
        (status = 502, body = Problem, content_type = "application/problem+json",
            description = "OAuthUserInfoFailed: the id_token did not verify; \
                OAuthCodeExchangeFailed: Apple refused the authorization_code (nothing linked)"),
    ),
    security(("bearer" = [])))]
pub async fn connect(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
    ProviderPath(provider): ProviderPath,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<IdTokenRequest>,
) -> Result<(StatusCode, Json<LinkedAccountRead>), ApiError> {
    let command = command(&state, &provider, request)?;
    let link = state
        .service
        .id_token_connect(caller.access, command, &origin)
        .await?;
    Ok((StatusCode::CREATED, Json(LinkedAccountRead::from(&link))))
}

/// 404 for the provider, then 422 for the fields; `post_body` goes to the adapter as it came.
fn command(
    state: &AppState,
    provider: &str,
    request: IdTokenRequest,
) -> Result<IdTokenCommand, ApiError> {
    let post_body = request
        .post_body
        .map(|body| PostBody::new(body.to_string()));
    let command = state.service.id_token_command(
        provider,
        &request.id_token,
        request.nonce.as_deref(),
        post_body,
    )?;
    Ok(match request.authorization_code.as_deref() {
        Some(code) => state.service.with_authorization_code(command, code)?,
        None => command,
    })
}
