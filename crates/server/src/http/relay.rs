//! `/relay/{provider}/{path}` (docs/api.md#relay): a call to the provider's API made for a
//! user, with the link's provider token attached by the service. The caller is the user
//! (their bearer token) or a backend (a service key and `Social-Login-User`). The path and
//! query are checked before any I/O; the answer streams back with only the headers that
//! describe it.

use super::AppState;
use super::error::{ApiError, Problem, ProblemAt};
use super::extract::{RequestOrigin, bearer_token};
use super::problem_only::OwnErrorFormat;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use futures_util::StreamExt;
use social_login_app::{BoundedBody, RelayCaller, RelayRequest, Relayed};
use social_login_domain::relay::{
    RelayMethod, RelayPath, check_relay_query, forwarded_to_provider,
};
use social_login_domain::{ErrorCode, Origin, UserId};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// The route's prefix; what follows is `{provider}/{path}`.
pub const RELAY_PREFIX: &str = "/relay/";
/// Largest body a relayed call sends on (a provider API's uploads go elsewhere).
pub const MAX_RELAY_BODY_BYTES: usize = 1 << 20;
/// The header that names the user a backend's service key calls for.
const RELAY_USER: &str = "social-login-user";
/// The header that picks one of the provider's API bases (the first by default).
const RELAY_BASE: &str = "social-login-relay-base";

/// The route takes the rest of the path whole (`{*path}`), which the OpenAPI document
/// cannot say: [`RelayDoc`] describes it as one `{path}` parameter instead.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(RelayDoc::openapi())
        .route("/relay/{provider}/{*path}", any(relay))
        .layer(DefaultBodyLimit::max(MAX_RELAY_BODY_BYTES))
}

#[derive(utoipa::OpenApi)]
#[openapi(paths(relay_doc))]
struct RelayDoc;

/// Call the provider's API for a user (docs/api.md#relay).
///
/// The service sends `{base}{path}?{query}` with the user's provider token and answers with
/// the provider's status, body and `Content-Type`. The caller is the user (their bearer
/// token) or a backend (a service key with `Social-Login-User`).
#[utoipa::path(method(get, post, put, patch, delete), path = "/relay/{provider}/{path}",
    tag = "relay",
    params(("provider" = String, Path, description = "the provider's key"),
        ("path" = String, Path, description = "the API path under the provider's base, \
            percent-encoded as sent (may hold `/`)")),
    responses((status = 200, description = "the provider's answer, whatever its status"),
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: a path or query that could leave the API base"),
        ProblemAt<401>,
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "OAuthAccountNotFound: no link of this provider; NotFound: relay off \
                or no API base"),
        (status = 409, body = Problem, content_type = "application/problem+json",
            description = "ProviderReauthorizationRequired: the grant is dead; connect_url \
                says where to connect again"),
        (status = 502, body = Problem, content_type = "application/problem+json",
            description = "ProviderUnavailable: the provider could not be reached, or its \
                answer is too long or repeats the grant's token")),
    security(("bearer" = [])))]
#[allow(dead_code, reason = "documents the route; `relay` serves it")]
async fn relay_doc() {}

async fn relay(
    State(state): State<AppState>,
    RequestOrigin(origin): RequestOrigin,
    parts: Parts,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (provider_segment, raw_path) =
        split_path(parts.uri.path()).ok_or_else(|| ApiError::of(ErrorCode::NotFound))?;
    let provider = state.service.enabled_provider(provider_segment)?;
    let method = RelayMethod::parse(parts.method.as_str())
        .ok_or_else(|| ApiError::of(ErrorCode::MethodNotAllowed))?;
    let caller = caller(&state, &parts, &origin).await?;
    let path = RelayPath::parse(raw_path).map_err(|bad| ApiError::bad_request(bad.to_string()))?;
    let query = parts.uri.query().unwrap_or_default();
    check_relay_query(query)
        .map_err(|bad| ApiError::bad_request(bad.to_string().replacen("path", "query", 1)))?;
    let request = RelayRequest {
        caller,
        method,
        path,
        query: query.to_owned(),
        base: header_text(&parts, RELAY_BASE).map(str::to_owned),
        headers: forwarded_headers(&parts),
        body,
    };
    let relayed = state.service.relay(&provider, request, &origin).await?;
    answer(relayed).await
}

/// `{provider}` and the raw (still percent-encoded) rest of a relay path.
fn split_path(path: &str) -> Option<(&str, &str)> {
    path.strip_prefix(RELAY_PREFIX)?.split_once('/')
}

/// Who calls: the user by their bearer, or a backend by a service key naming the user
/// (under the wrong-key throttle). Nothing else is read here: the grant's one read says
/// whether the user is locked, or has no link.
async fn caller(state: &AppState, parts: &Parts, origin: &Origin) -> Result<RelayCaller, ApiError> {
    let bearer = bearer_token(parts).ok_or_else(|| ApiError::of(ErrorCode::Unauthorized))?;
    let Some(named) = header_text(parts, RELAY_USER) else {
        let access = state.service.verify_bearer(bearer);
        return access
            .map(|access| RelayCaller::User(access.user))
            .ok_or_else(|| ApiError::of(ErrorCode::Unauthorized));
    };
    // Each configured key compared in constant time; with none configured, nobody matches.
    let backend = || state.relay_keys.verify(bearer);
    if state.service.checked_key(origin, backend).await?.is_none() {
        return Err(ApiError::of(ErrorCode::Unauthorized));
    }
    named
        .parse::<UserId>()
        .map(RelayCaller::Backend)
        .map_err(|_| ApiError::bad_request("Social-Login-User: not a user id"))
}

fn header_text<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts.headers.get(name)?.to_str().ok()
}

/// The caller's headers that go on to the provider: what describes the body and what it
/// accepts, never its credentials or cookies.
fn forwarded_headers(parts: &Parts) -> Vec<(String, String)> {
    parts
        .headers
        .iter()
        .filter(|(name, _)| forwarded_to_provider(name.as_str()))
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect()
}

/// The provider's answer, streamed: its status, its passed-back headers, its body read
/// chunk by chunk (cut off with an error past `max_response_bytes`, or where it would show
/// the grant's token). Its own error format passes as it is. The first chunk is read before
/// anything is sent, so an answer refused at once is a 502 problem, not a dropped connection.
async fn answer(mut relayed: Relayed) -> Result<Response, ApiError> {
    let status = StatusCode::from_u16(relayed.status).unwrap_or(StatusCode::BAD_GATEWAY);
    let first = relayed.body.chunk().await?;
    let rest = futures_util::stream::unfold(relayed.body, |mut body: BoundedBody| async move {
        match body.chunk().await {
            Ok(Some(chunk)) => Some((Ok(chunk), body)),
            Ok(None) => None,
            Err(error) => {
                tracing::warn!(error = %error, "relayed answer cut off");
                Some((Err(std::io::Error::other(error.to_string())), body))
            }
        }
    });
    let body = futures_util::stream::iter(first.map(Ok)).chain(rest);
    let mut response = (status, Body::from_stream(body)).into_response();
    let headers = response.headers_mut();
    for (name, value) in relayed.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            headers.append(name, value);
        }
    }
    response.extensions_mut().insert(OwnErrorFormat);
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_and_the_raw_rest_are_split_once() {
        assert_eq!(
            split_path("/relay/github/repos/a%20b/issues"),
            Some(("github", "repos/a%20b/issues"))
        );
        assert_eq!(split_path("/relay/github/"), Some(("github", "")));
        assert_eq!(split_path("/relay/github"), None);
        assert_eq!(split_path("/auth/github/x"), None);
    }
}
