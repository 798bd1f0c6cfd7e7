//! Native sign-in with a provider id_token (docs/api.md#native-sign-in): for apps that receive an id_token
//! on the device (Sign in with Apple, Google Sign-In, MSAL) rather than a code.

use super::AppState;
use super::dto::{ConnectedRead, IdTokenRequest, LinkedAccountRead, LoginResponse};
use super::error::{ApiError, Problem, ProblemAt, SignInRefused};
use super::extract::{ApiJson, CurrentSession, ProviderCall};
use axum::Json;
use social_login_app::IdTokenCommand;

/// Log in or register with an id_token the app obtained from the provider.
#[utoipa::path(post, path = "/auth/oauth/{provider}/id-token", tag = "oauth",
    params(("provider" = String, Path, description = "provider key: google, microsoft or apple")),
    request_body = IdTokenRequest,
    responses((status = 200, body = LoginResponse), SignInRefused, ProblemAt<404>, ProblemAt<409>,
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "IdTokenNotSupported: the provider issues no id_tokens"),
        (status = 422, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: id_token missing or too long, nonce missing \
                where the provider requires it, or authorization_code for a provider other \
                than apple"),
        (status = 502, body = Problem, content_type = "application/problem+json",
            description = "OAuthUserInfoFailed: the id_token did not verify, or was used \
                before; OAuthCodeExchangeFailed: Apple refused the authorization_code \
                (nobody is signed in)")))]
pub async fn sign_in(
    call: ProviderCall,
    ApiJson(request): ApiJson<IdTokenRequest>,
) -> Result<Json<LoginResponse>, ApiError> {
    let command = command(&call.state, call.provider, request)?;
    let service = &call.state.service;
    let result = service.id_token_sign_in(command, &call.origin).await?;
    Ok(Json(result.into()))
}

/// Link the provider account an app's id_token is about to the caller; needs a recent
/// login (401 `ReauthenticationRequired`).
#[utoipa::path(post, path = "/auth/oauth/{provider}/id-token/connect", tag = "oauth",
    operation_id = "id_token_connect",
    params(("provider" = String, Path, description = "provider key: google, microsoft or apple")),
    request_body = IdTokenRequest,
    responses((status = 201, body = LinkedAccountRead),
        (status = 200, body = LinkedAccountRead,
            description = "the caller's own link of this account, its tokens renewed"),
        ProblemAt<400>, ProblemAt<401>,
        ProblemAt<404>, ProblemAt<409>, ProblemAt<422>,
        (status = 502, body = Problem, content_type = "application/problem+json",
            description = "OAuthUserInfoFailed: the id_token did not verify; \
                OAuthCodeExchangeFailed: Apple refused the authorization_code (nothing linked)")),
    security(("bearer" = [])))]
pub async fn connect(
    CurrentSession(caller): CurrentSession,
    call: ProviderCall,
    ApiJson(request): ApiJson<IdTokenRequest>,
) -> Result<ConnectedRead, ApiError> {
    let command = command(&call.state, call.provider, request)?;
    let service = &call.state.service;
    let connected = service
        .id_token_connect(caller.access, command, &call.origin)
        .await?;
    Ok(ConnectedRead(connected))
}

/// 422 for the fields (the provider's 404 came first, from the path); `post_body` goes to
/// the adapter as it came.
fn command(
    state: &AppState,
    provider: social_login_app::EnabledProvider,
    request: IdTokenRequest,
) -> Result<IdTokenCommand, ApiError> {
    let command = state.service.id_token_command(
        provider,
        &request.id_token,
        request.nonce.as_deref(),
        request.post_body,
    )?;
    Ok(match request.authorization_code.as_deref() {
        Some(code) => state.service.with_authorization_code(command, code)?,
        None => command,
    })
}
