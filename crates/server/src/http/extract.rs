//! Extractors whose rejections speak our problem+json format.

use super::AppState;
use super::client_ip::ClientIp;
use super::error::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;
use social_login_app::Caller;
use social_login_domain::{ErrorCode, Origin};

/// `axum::Json` with rejections turned into 422 `ValidationError` or 413 `PayloadTooLarge`.
/// The detail names the problem but never echoes a value from the body (it may be a
/// password).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
}

fn json_rejection(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::of(ErrorCode::PayloadTooLarge);
    }
    let detail = match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "expected a body with Content-Type: application/json".to_owned()
        }
        JsonRejection::JsonSyntaxError(_) => "request body is not valid JSON".to_owned(),
        JsonRejection::JsonDataError(error) => data_error_detail(&error.body_text()),
        _ => "request body could not be read".to_owned(),
    };
    ApiError::validation(detail)
}

/// serde's messages quote offending values (`invalid type: string "hunter2"`), so only the
/// field name of a missing field is passed on.
fn data_error_detail(message: &str) -> String {
    match message.split_once("missing field `") {
        Some((_, rest)) => {
            let field = rest.split('`').next().unwrap_or_default();
            format!("{field}: field is required")
        }
        None => "a field is missing, of the wrong type, or has an invalid value".to_owned(),
    }
}

/// The enabled provider the `{provider}` path segment names, resolved once for the request;
/// the use cases take it as it is. Any other segment, even one that does not decode (`%FF`),
/// is 404 `OAuthProviderNotConfigured` (docs/api.md#provider-keys), before the body is read.
pub struct EnabledProvider(pub social_login_app::EnabledProvider);

impl FromRequestParts<AppState> for EnabledProvider {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let axum::extract::Path(raw) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| ApiError::of(ErrorCode::OAuthProviderNotConfigured))?;
        Ok(Self(state.service.enabled_provider(&raw)?))
    }
}

/// Path parameters; a path whose parameters do not decode (`%FF`) names nothing: 404
/// `NotFound`, like a path that names nothing else.
pub struct PathText<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for PathText<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Path(value) = axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::of(ErrorCode::NotFound))?;
        Ok(Self(value))
    }
}

/// A path parameter that names something by its id: one that does not decode or parse as
/// `T` names nothing, 404 `NotFound`, like a path that names nothing else.
pub struct PathId<T>(pub T);

impl<T: std::str::FromStr + Send, S: Send + Sync> FromRequestParts<S> for PathId<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let PathText(text) = PathText::<String>::from_request_parts(parts, state).await?;
        text.parse()
            .map(Self)
            .map_err(|_| ApiError::of(ErrorCode::NotFound))
    }
}

/// The caller of a protected endpoint: the stored user and when the token's login happened
/// (for what needs a recent one); 401 `Unauthorized` without a valid bearer token of a user
/// that still exists.
pub struct CurrentSession(pub Caller);

impl FromRequestParts<AppState> for CurrentSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer_token(parts).ok_or_else(|| ApiError::of(ErrorCode::Unauthorized))?;
        Ok(Self(state.service.caller(token).await?))
    }
}

/// What a request to a provider's endpoint starts from: the service, the enabled provider the
/// path names (404 first) and where the request came from.
pub struct ProviderCall {
    pub state: AppState,
    pub provider: social_login_app::EnabledProvider,
    pub origin: Origin,
}

impl FromRequestParts<AppState> for ProviderCall {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let EnabledProvider(provider) = EnabledProvider::from_request_parts(parts, state).await?;
        let RequestOrigin(origin) = RequestOrigin::from_request_parts(parts, state)
            .await
            .unwrap_or_else(|never| match never {});
        Ok(Self {
            state: state.clone(),
            provider,
            origin,
        })
    }
}

/// Where the request came from, for its audit events: the client IP the proxy rules
/// resolved (none when unknown), the `User-Agent` and the request id.
pub struct RequestOrigin(pub Origin);

impl<S: Send + Sync> FromRequestParts<S> for RequestOrigin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .filter(|ip| *ip != ClientIp::UNKNOWN)
            .map(|ip| ip.0);
        let text = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        Ok(Self(Origin::new(
            ip,
            text(header::USER_AGENT.as_str()),
            text(super::REQUEST_ID.as_str()),
        )))
    }
}

/// The bearer token, if any, for endpoints where it is optional (authorize).
pub struct OptionalBearer(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for OptionalBearer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(bearer_token(parts).map(str::to_owned)))
    }
}

pub(crate) fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_field_is_named() {
        assert_eq!(
            data_error_detail("Failed to deserialize: missing field `state` at line 1 column 14"),
            "state: field is required"
        );
    }

    #[test]
    fn values_from_the_body_are_never_echoed() {
        let detail = data_error_detail(
            "Failed to deserialize: password: invalid type: string \"hunter2\", expected u32",
        );
        assert!(!detail.contains("hunter2"));
    }
}
