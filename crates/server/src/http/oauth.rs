//! The provider endpoints of docs/api.md#endpoints, and the list of enabled providers.

use super::dto::{
    AuthorizeResponse, CallbackRequest, ConnectedRead, LinkCompleteRequest, LinkedAccountRead,
    LoginResponse, ProviderRead, SizedJson,
};
use super::error::{ApiError, Problem, ProblemAt, SignInRefused};
use super::extract::{
    ApiJson, CurrentSession, EnabledProvider, OptionalBearer, ProviderCall, RequestOrigin,
};
use super::rate_limit::Limit;
use super::{AppState, id_token};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use social_login_app::ProviderReturn;
use social_login_app::{AskedPurpose, AuthorizeOptions};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The provider resource: the code flow and the native sign-in (limited per IP, before a
/// bearer token is checked), and the caller's links.
pub(super) fn routes(limit: &Limit) -> OpenApiRouter<AppState> {
    let public = OpenApiRouter::new()
        .routes(routes!(providers))
        .routes(routes!(authorize))
        .routes(routes!(callback))
        .routes(routes!(id_token::sign_in));
    limit
        .apply(public)
        .routes(routes!(connect))
        .routes(routes!(id_token::connect))
        .routes(routes!(accounts))
        .routes(routes!(complete_link))
        .routes(routes!(disconnect))
}

/// The enabled providers, in configuration order: what sign-in buttons are made from.
#[utoipa::path(get, path = "/auth/oauth/providers", tag = "oauth",
    responses((status = 200, body = Vec<ProviderRead>)))]
pub async fn providers(State(state): State<AppState>) -> Json<Vec<ProviderRead>> {
    let providers = state.service.providers();
    Json(providers.iter().map(ProviderRead::from).collect())
}

/// `GET authorize`'s query: all optional.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuthorizeQuery {
    /// `connect`: a connect, which needs the user's bearer token (else 401); `login`: a
    /// login whatever token comes with it. Without it a valid bearer token makes a connect.
    purpose: Option<String>,
    /// Scopes a connect asks for beyond the provider's, comma separated; each must be one of
    /// the provider's `connect_scopes` (else 422).
    scopes: Option<String>,
    /// BASE64URL(SHA-256(secret)) of a random secret only this client keeps, as PKCE's S256
    /// challenge (43 characters, else 422): the callback or connect must then send the secret
    /// as `binding`, so a code and state that leak with the redirect are of no use to others.
    binding_challenge: Option<String>,
}

/// The longest `scopes` parameter an authorize reads.
const MAX_SCOPES_PARAM_BYTES: usize = 1024;

impl AuthorizeQuery {
    fn options(self) -> Result<AuthorizeOptions, ApiError> {
        let purpose = match self.purpose.as_deref() {
            None => AskedPurpose::FromBearer,
            Some("login") => AskedPurpose::Login,
            Some("connect") => AskedPurpose::Connect,
            Some(_) => return Err(ApiError::validation("purpose: `login` or `connect`")),
        };
        let scopes = self.scopes.as_deref().unwrap_or_default();
        // Far more than the state value can carry (`MAX_EXTRA_SCOPES_BYTES`): refused before
        // it is split.
        if scopes.len() > MAX_SCOPES_PARAM_BYTES {
            return Err(ApiError::validation(format!(
                "scopes: at most {MAX_SCOPES_PARAM_BYTES} characters of scopes"
            )));
        }
        Ok(AuthorizeOptions {
            binding_challenge: self.binding_challenge,
            purpose,
            scopes: (scopes.split(',').map(str::trim))
                .filter(|scope| !scope.is_empty())
                .map(str::to_owned)
                .collect(),
        })
    }
}

/// Start a login, or a connect when a valid bearer token is sent (its session's login must
/// be recent, else 401 `ReauthenticationRequired`).
#[utoipa::path(get, path = "/auth/oauth/{provider}/authorize", tag = "oauth",
    params(("provider" = String, Path, description = "provider key"), AuthorizeQuery),
    responses((status = 200, body = AuthorizeResponse), ProblemAt<404>,
        (status = 401, body = Problem, content_type = "application/problem+json",
            description = "ReauthenticationRequired: a connect needs a recent login; \
                Unauthorized: purpose=connect without a valid bearer token"),
        (status = 422, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: a scope that is not one of the provider's \
                connect_scopes, scopes on a login, or a malformed binding_challenge")),
    security((), ("bearer" = [])))]
pub async fn authorize(
    State(state): State<AppState>,
    EnabledProvider(provider): EnabledProvider,
    OptionalBearer(bearer): OptionalBearer,
    query: Result<Query<AuthorizeQuery>, QueryRejection>,
) -> Result<SizedJson<AuthorizeResponse>, ApiError> {
    let Query(query) = query.map_err(|_| ApiError::validation("the query does not parse"))?;
    let options = query.options()?;
    let authorization_url = state
        .service
        .authorize(provider, bearer.as_deref(), options)
        .await?;
    Ok(SizedJson {
        // `{"authorization_url":"…"}`: a URL needs no JSON escaping.
        capacity: authorization_url.len() + 32,
        value: AuthorizeResponse { authorization_url },
    })
}

/// Log in or register with the code the provider returned.
#[utoipa::path(post, path = "/auth/oauth/{provider}/callback", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    request_body = CallbackRequest,
    responses((status = 200, body = LoginResponse), ProblemAt<400>, SignInRefused,
        ProblemAt<404>, ProblemAt<409>, ProblemAt<502>))]
pub async fn callback(
    call: ProviderCall,
    ApiJson(request): ApiJson<CallbackRequest>,
) -> Result<SizedJson<LoginResponse>, ApiError> {
    let ret = provider_return(&call.state, call.provider, request)?;
    let result = call.state.service.callback(ret, &call.origin).await?;
    Ok(SizedJson {
        value: result.into(),
        capacity: LoginResponse::TYPICAL_JSON_BYTES,
    })
}

/// Link a provider account to the caller; needs a recent login (401
/// `ReauthenticationRequired`).
#[utoipa::path(post, path = "/auth/oauth/{provider}/connect", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    request_body = CallbackRequest,
    responses((status = 201, body = LinkedAccountRead),
        (status = 200, body = LinkedAccountRead,
            description = "the caller's own link of this account, its tokens renewed"),
        ProblemAt<400>, ProblemAt<401>, ProblemAt<404>, ProblemAt<409>, ProblemAt<502>),
    security(("bearer" = [])))]
pub async fn connect(
    CurrentSession(caller): CurrentSession,
    call: ProviderCall,
    ApiJson(request): ApiJson<CallbackRequest>,
) -> Result<ConnectedRead, ApiError> {
    let ret = provider_return(&call.state, call.provider, request)?;
    let service = &call.state.service;
    let connected = service.connect(caller.access, ret, &call.origin).await?;
    Ok(ConnectedRead(connected))
}

/// Finish a link a provider login offered (its 409 `EmailAlreadyRegistered` carried a
/// `link_token`), as the user who holds that email, signed in recently.
#[utoipa::path(post, path = "/auth/link/complete", tag = "oauth",
    request_body = LinkCompleteRequest,
    responses((status = 201, body = LinkedAccountRead),
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "InvalidLinkToken: it does not open, expired or was used"),
        (status = 401, body = Problem, content_type = "application/problem+json",
            description = "Unauthorized; ReauthenticationRequired: the login is not recent"),
        (status = 403, body = Problem, content_type = "application/problem+json",
            description = "LinkTokenNotForYou: offered to another user"),
        (status = 409, body = Problem, content_type = "application/problem+json",
            description = "ProviderAlreadyLinked: the provider account was linked meanwhile")),
    security(("bearer" = [])))]
pub async fn complete_link(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
    RequestOrigin(origin): RequestOrigin,
    ApiJson(request): ApiJson<LinkCompleteRequest>,
) -> Result<(StatusCode, Json<LinkedAccountRead>), ApiError> {
    let link = state
        .service
        .complete_link(caller.access, &request.link_token, &origin)
        .await?;
    Ok((StatusCode::CREATED, Json(LinkedAccountRead::from(&link))))
}

/// The caller's linked accounts.
#[utoipa::path(get, path = "/auth/oauth/accounts", tag = "oauth",
    responses((status = 200, body = Vec<LinkedAccountRead>), ProblemAt<401>),
    security(("bearer" = [])))]
pub async fn accounts(
    State(state): State<AppState>,
    CurrentSession(caller): CurrentSession,
) -> Result<Json<Vec<LinkedAccountRead>>, ApiError> {
    let links = state.service.accounts(caller.user.id).await?;
    Ok(Json(links.iter().map(LinkedAccountRead::from).collect()))
}

/// Unlink a provider from the caller.
#[utoipa::path(delete, path = "/auth/oauth/{provider}/disconnect", tag = "oauth",
    params(("provider" = String, Path, description = "provider key")),
    responses((status = 204, description = "unlinked"), ProblemAt<400>, ProblemAt<401>,
        ProblemAt<404>),
    security(("bearer" = [])))]
pub async fn disconnect(
    CurrentSession(caller): CurrentSession,
    call: ProviderCall,
) -> Result<StatusCode, ApiError> {
    let service = &call.state.service;
    service
        .disconnect(caller.user.id, call.provider, &call.origin)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// 422 for the fields (the provider's 404 came first, from the path). `post_body` goes to
/// the provider's adapter as it came: what it means is the adapter's business (Apple reads
/// the first login's name from it, the others ignore it).
fn provider_return(
    state: &AppState,
    provider: social_login_app::EnabledProvider,
    request: CallbackRequest,
) -> Result<ProviderReturn, ApiError> {
    Ok(state
        .service
        .provider_return(provider, &request.code, &request.state, request.post_body)?
        .with_binding(request.binding))
}
