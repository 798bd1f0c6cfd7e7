//! The operator API, `/admin/...` (docs/api.md#operator-api): six endpoints for support,
//! behind admin keys of their own. They exist only when `[admin] api_keys` lists a key.

mod auth;
mod cursor;
mod dto;
mod events;

use super::AppState;
use super::dto::ExportRead;
use super::error::{ApiError, Problem, ProblemAt};
use super::extract::{PathId, PathText};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::Deserialize;
use social_login_app::{AdminService, AppError};
use social_login_domain::{
    Email, ErrorCode, Origin, PageLimit, ProviderKey, ProviderSubject, UserFilter, UserId,
};
use social_login_security::AdminKeys;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use auth::AdminCaller;
pub use dto::{AdminUserDetails, AdminUserRead, UserList};

/// The operator API's use cases and keys, when it is on.
#[derive(Clone)]
pub struct Operator {
    pub service: AdminService,
    pub keys: AdminKeys,
}

/// Every `/admin/...` route with its documentation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(find_users))
        .routes(routes!(user, delete_user))
        .routes(routes!(export))
        .routes(routes!(events::events))
        .routes(routes!(unlink))
        .routes(routes!(revoke_sessions))
        .routes(routes!(lock))
        .routes(routes!(unlock))
}

/// The query of `GET /admin/users`; every field is text, so a bad value is our 422.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// The user who claims this address (case-insensitive).
    email: Option<String>,
    /// Users with a link of this provider.
    provider: Option<String>,
    /// With `provider`: the user of this provider account.
    subject: Option<String>,
    /// Users per page, 1 to 100 (default 50).
    limit: Option<String>,
    /// `next_cursor` of the previous page.
    cursor: Option<String>,
}

impl UsersQuery {
    fn filter(&self) -> Result<UserFilter, ApiError> {
        let email = self
            .email
            .as_deref()
            .map(|email| {
                Email::parse(email).map_err(|_| ApiError::validation("email: not an email address"))
            })
            .transpose()?;
        let provider = self
            .provider
            .as_deref()
            .map(|key| {
                key.parse::<ProviderKey>()
                    .map_err(|_| ApiError::validation("provider: not a provider key"))
            })
            .transpose()?;
        let subject = self
            .subject
            .clone()
            .map(|subject| {
                ProviderSubject::parse(subject)
                    .map_err(|_| ApiError::validation("subject: not a provider subject"))
            })
            .transpose()?;
        UserFilter::from_parts(email, provider, subject).map_err(|bad| ApiError::validation(bad.0))
    }

    fn limit(&self) -> Result<PageLimit, ApiError> {
        match &self.limit {
            None => Ok(PageLimit::DEFAULT),
            Some(limit) => limit
                .parse::<u64>()
                .ok()
                .and_then(PageLimit::new)
                .ok_or_else(|| {
                    let max = PageLimit::MAX.get();
                    ApiError::validation(format!("limit: a number from 1 to {max}"))
                }),
        }
    }
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(query)| query)
        .map_err(|_| ApiError::validation("the query string could not be read"))
}

/// Find users by email, by provider, or by provider account; a page at a time, by id.
#[utoipa::path(get, path = "/admin/users", tag = "admin",
    params(UsersQuery),
    responses((status = 200, body = UserList), ProblemAt<401>,
        (status = 422, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: a bad email, provider, subject without provider, \
                email with provider, limit outside 1 to 100, or a cursor not from this API")),
    security(("admin_key" = [])))]
pub async fn find_users(
    AdminCaller(operator, _): AdminCaller,
    users: Result<Query<UsersQuery>, QueryRejection>,
) -> Result<Json<UserList>, ApiError> {
    let users = query(users)?;
    let filter = users.filter()?;
    let limit = users.limit()?;
    let after = users.cursor.as_deref().map(cursor::decode).transpose()?;
    let page = operator.service.find_users(&filter, after, limit).await?;
    Ok(Json(UserList::from(page)))
}

/// A user with its linked accounts and how many sessions it has.
#[utoipa::path(get, path = "/admin/users/{id}", tag = "admin",
    params(("id" = String, Path, description = "user id")),
    responses((status = 200, body = AdminUserDetails), ProblemAt<401>,
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "NotFound: no such user")),
    security(("admin_key" = [])))]
pub async fn user(
    AdminCaller(operator, origin): AdminCaller,
    PathId(id): PathId<UserId>,
) -> Result<Json<AdminUserDetails>, ApiError> {
    let details = operator.service.user(id, &origin).await?;
    Ok(Json(AdminUserDetails::from(&details)))
}

/// Everything the service holds about the user (docs/api.md#export), as the user's own
/// export gives it.
#[utoipa::path(get, path = "/admin/users/{id}/export", tag = "admin",
    operation_id = "admin_export",
    params(("id" = String, Path, description = "user id")),
    responses((status = 200, body = ExportRead), ProblemAt<401>,
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "NotFound: no such user")),
    security(("admin_key" = [])))]
pub async fn export(
    AdminCaller(operator, origin): AdminCaller,
    PathId(id): PathId<UserId>,
) -> Result<Json<ExportRead>, ApiError> {
    let export = operator.service.export(id, &origin).await?;
    Ok(Json(ExportRead::from(&export)))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ForceQuery {
    /// `true`: remove the last way to log in too, and lock the user.
    force: Option<String>,
}

/// Unlink a provider account from the user and revoke its grant at the provider (best
/// effort). The last way to log in goes only with `?force=true`, which also locks the user.
#[utoipa::path(delete, path = "/admin/users/{id}/links/{provider}", tag = "admin",
    params(("id" = String, Path, description = "user id"),
        ("provider" = String, Path, description = "provider key"), ForceQuery),
    responses(
        (status = 204, description = "unlinked (and locked, when forced off the last way in)"),
        ProblemAt<401>, ProblemAt<422>,
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "NotFound: no such user; OAuthAccountNotFound: no link of this provider"),
        (status = 409, body = Problem, content_type = "application/problem+json",
            description = "LastLoginMethod: the user's last way to log in, without force=true"),
    ),
    security(("admin_key" = [])))]
pub async fn unlink(
    AdminCaller(operator, origin): AdminCaller,
    PathText((id, provider)): PathText<(String, String)>,
    force: Result<Query<ForceQuery>, QueryRejection>,
) -> Result<StatusCode, ApiError> {
    let force = match query(force)?.force.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => return Err(ApiError::validation("force: true or false")),
    };
    let id = user_id(&id)?;
    let provider = provider
        .parse::<ProviderKey>()
        .map_err(|_| ApiError::of(ErrorCode::OAuthAccountNotFound))?;
    operator
        .service
        .unlink(id, provider, force, &origin)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The endpoints that change one user and answer 204: each hands its [`UserChange`] to one
/// use case, `$call`, with the operator's service, the user and the origin bound to the names
/// it gives them.
macro_rules! user_change {
    ($(#[doc = $doc:tt])* $method:ident $path:tt => $name:ident, $done:tt,
        |$service:ident, $user:ident, $origin:ident| $call:expr) => {
        $(#[doc = $doc])*
        #[utoipa::path($method, path = $path, tag = "admin",
            params(("id" = String, Path, description = "user id")),
            responses((status = 204, description = $done), ProblemAt<401>, ProblemAt<404>),
            security(("admin_key" = [])))]
        pub async fn $name(change: UserChange) -> Result<StatusCode, ApiError> {
            let UserChange { service: $service, user: $user, origin } = change;
            let $origin = &origin;
            $call.await?;
            Ok(StatusCode::NO_CONTENT)
        }
    };
}

user_change! {
    /// End every session of the user: each refresh token stops working.
    post "/admin/users/{id}/sessions/revoke" => revoke_sessions, "every session ended",
    |service, user, origin| service.revoke_sessions(user, origin)
}

user_change! {
    /// Lock the user: no login of any kind (403 `UserLocked`), every session ended, its access
    /// tokens refused.
    post "/admin/users/{id}/lock" => lock, "locked",
    |service, user, origin| service.set_locked(user, true, origin)
}

user_change! {
    /// Unlock the user: logins work again; the sessions the lock ended stay ended.
    post "/admin/users/{id}/unlock" => unlock, "unlocked",
    |service, user, origin| service.set_locked(user, false, origin)
}

user_change! {
    /// Delete the user as `DELETE /users/me` does: links and sessions go too, each grant is
    /// revoked at its provider (best effort).
    delete "/admin/users/{id}" => delete_user, "deleted",
    |service, user, origin| service.delete_user(user, origin)
}

/// What a change to one user needs: the operator's use cases, the `{id}` of the path, and
/// the request's origin naming the admin key (so its events say who did it).
pub struct UserChange {
    service: AdminService,
    user: UserId,
    origin: Origin,
}

impl FromRequestParts<AppState> for UserChange {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let AdminCaller(operator, origin) = AdminCaller::from_request_parts(parts, state).await?;
        let PathId(user) = PathId::<UserId>::from_request_parts(parts, state).await?;
        Ok(Self {
            service: operator.service,
            user,
            origin,
        })
    }
}

/// A path's user id; one that cannot be an id names no user.
fn user_id(text: &str) -> Result<UserId, ApiError> {
    text.parse::<UserId>()
        .map_err(|_| ApiError::from(AppError::UserNotFound))
}
