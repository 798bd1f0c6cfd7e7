//! The signal endpoints (docs/api.md, "Signals from providers"): Apple's notifications,
//! Meta's data deletion and deauthorize callbacks and the deletion status URL, Google's
//! Cross-Account Protection. Public (providers call them); each body is read as its
//! provider sends it and verified before anything is stored. They are not rate limited per
//! IP: a provider delivers bursts from a few addresses, and junk costs one signature check.

mod dto;

pub use dto::{
    AppleNotification, DataDeletionAnswer, DataDeletionStatus, SetError, SignedRequestForm,
};

use super::AppState;
use super::error::{ApiError, Problem, ProblemAt};
use super::extract::{PathText, RequestOrigin};
use super::problem_only::OwnErrorFormat;
use super::rate_limit::Limit;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use social_login_app::{AppError, AppResult, SignalEndpoint};
use social_login_domain::{ErrorCode, Origin, SignalId, SignalSource};
use social_login_ports::RefusalReason;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The signal resource. Providers call the signal endpoints: they are not limited per IP;
/// the deletion status page people follow is.
pub(super) fn routes(limit: &Limit) -> OpenApiRouter<AppState> {
    limit
        .apply(OpenApiRouter::new().routes(routes!(data_deletion_status)))
        .routes(routes!(apple_notification))
        .routes(routes!(facebook_data_deletion))
        .routes(routes!(facebook_deauthorize))
        .routes(routes!(google_risc))
}

/// Take a Sign in with Apple server-to-server notification.
#[utoipa::path(post, path = "/auth/oauth/apple/notifications", tag = "signals",
    request_body(content = AppleNotification, content_type = "application/json"),
    responses(
        (status = 200, description = "handled, or about no account here (the same answer)"),
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "InvalidSignal: not Apple's, not for this app, or unreadable"),
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "OAuthProviderNotConfigured: apple is not enabled"),
    ))]
pub async fn apple_notification(delivery: Delivery) -> Result<StatusCode, ApiError> {
    let endpoint = delivery.enabled(SignalSource::AppleNotification)?;
    require_media_type(&delivery.headers, "application/json")?;
    let payload = serde_json::from_slice::<serde_json::Value>(&delivery.body)
        .ok()
        .and_then(|body| body.get("payload")?.as_str().map(str::to_owned))
        .ok_or_else(|| invalid("expected a JSON object with a string `payload`"))?;
    delivery.acted_on(&endpoint, &payload).await
}

/// Take Meta's data deletion request: the account's link goes (its user too, when it was
/// the last way in); answers where the person can follow it.
#[utoipa::path(post, path = "/auth/oauth/facebook/data-deletion", tag = "signals",
    request_body(content = SignedRequestForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, body = DataDeletionAnswer), ProblemAt<404>,
        (status = 400, body = Problem, content_type = "application/problem+json",
            description = "InvalidSignal: not signed with the app secret, or unreadable")))]
pub async fn facebook_data_deletion(
    delivery: Delivery,
) -> Result<Json<DataDeletionAnswer>, ApiError> {
    let endpoint = delivery.enabled(SignalSource::FacebookDataDeletion)?;
    let signed_request = delivery.signed_request()?;
    let code = delivery.receive(&endpoint, &signed_request).await?;
    let base = delivery
        .state
        .deletion_status_base
        .as_deref()
        .ok_or_else(|| ApiError::from(AppError::Internal("server.public_url is not set".into())))?;
    Ok(Json(DataDeletionAnswer {
        url: format!("{base}{}", code.as_str()),
        confirmation_code: code.as_str().to_owned(),
    }))
}

/// The status of a data deletion request: JSON, or a page when the client asks for HTML.
#[utoipa::path(get, path = "/auth/oauth/facebook/data-deletion/{confirmation_code}", tag = "signals",
    params(("confirmation_code" = String, Path, description = "from the deletion's answer")),
    responses(
        (status = 200, body = DataDeletionStatus, description = "JSON, or text/html on request"),
        (status = 404, body = Problem, content_type = "application/problem+json",
            description = "NotFound: no request has this code"),
    ))]
pub async fn data_deletion_status(
    State(state): State<AppState>,
    PathText(code): PathText<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let completed_at = state
        .service
        .data_deletion_status(&code)
        .await?
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotFound,
                "no data deletion request has this confirmation code",
            )
        })?;
    let status = DataDeletionStatus::completed(&code, completed_at);
    if wants_html(&headers) {
        return Ok(Html(status_page(&status)).into_response());
    }
    Ok(Json(status).into_response())
}

/// Take Meta's deauthorize callback: sessions the account began end, its tokens go.
#[utoipa::path(post, path = "/auth/oauth/facebook/deauthorize", tag = "signals",
    request_body(content = SignedRequestForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "handled, or about no account here (the same answer)"),
        ProblemAt<400>, ProblemAt<404>))]
pub async fn facebook_deauthorize(delivery: Delivery) -> Result<StatusCode, ApiError> {
    let endpoint = delivery.enabled(SignalSource::FacebookDeauthorize)?;
    let signed_request = delivery.signed_request()?;
    delivery.acted_on(&endpoint, &signed_request).await
}

/// Take a Security Event Token from Google's Cross-Account Protection (RFC 8935 push).
#[utoipa::path(post, path = "/auth/oauth/google/risc", tag = "signals",
    request_body(content = String, content_type = "application/secevent+jwt",
        description = "the Security Event Token itself"),
    responses((status = 202, description = "accepted (also when it names no account here)"),
        ProblemAt<404>,
        (status = 400, body = SetError, content_type = "application/json",
            description = "refused, with RFC 8935's error code")))]
pub async fn google_risc(delivery: Delivery) -> Response {
    let endpoint = match delivery.enabled(SignalSource::GoogleRisc) {
        Ok(endpoint) => endpoint,
        Err(error) => return error.into_response(),
    };
    if require_media_type(&delivery.headers, "application/secevent+jwt").is_err() {
        return set_error(
            RefusalReason::InvalidRequest,
            "expected application/secevent+jwt",
        );
    }
    let Ok(token) = std::str::from_utf8(&delivery.body) else {
        return set_error(RefusalReason::InvalidRequest, "the body is not text");
    };
    match delivery.receive(&endpoint, token).await {
        Ok(_) => StatusCode::ACCEPTED.into_response(),
        Err(AppError::InvalidSignal(refused)) => set_error(refused.reason, &refused.detail),
        Err(other) => ApiError::from(other).into_response(),
    }
}

/// What a provider delivers to a signal endpoint: the request's headers and body as they
/// came, where it came from, and the service that takes it.
pub struct Delivery {
    state: AppState,
    origin: Origin,
    headers: HeaderMap,
    body: Bytes,
}

impl FromRequest<AppState> for Delivery {
    type Rejection = BytesRejection;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = request.into_parts();
        let RequestOrigin(origin) = RequestOrigin::from_request_parts(&mut parts, state)
            .await
            .unwrap_or_else(|never| match never {});
        let headers = parts.headers.clone();
        let body = Bytes::from_request(Request::from_parts(parts, body), state).await?;
        Ok(Self {
            state: state.clone(),
            origin,
            headers,
            body,
        })
    }
}

impl Delivery {
    /// 404 `OAuthProviderNotConfigured` first: a provider that is not enabled has no
    /// endpoint, whatever the request looks like.
    fn enabled(&self, source: SignalSource) -> Result<SignalEndpoint, ApiError> {
        Ok(self.state.service.signal_endpoint(source)?)
    }

    /// The `signed_request` field of Meta's form.
    fn signed_request(&self) -> Result<String, ApiError> {
        require_media_type(&self.headers, "application/x-www-form-urlencoded")?;
        url::form_urlencoded::parse(&self.body)
            .find(|(name, _)| name == "signed_request")
            .map(|(_, value)| value.into_owned())
            .ok_or_else(|| invalid("the form has no signed_request"))
    }

    async fn receive(&self, endpoint: &SignalEndpoint, signal: &str) -> AppResult<SignalId> {
        self.state
            .service
            .receive_signal(endpoint, signal, &self.origin)
            .await
    }

    /// 200 once the service has taken `signal`: handled, or about no account here (the same
    /// answer).
    async fn acted_on(
        &self,
        endpoint: &SignalEndpoint,
        signal: &str,
    ) -> Result<StatusCode, ApiError> {
        self.receive(endpoint, signal).await?;
        Ok(StatusCode::OK)
    }
}

fn invalid(detail: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidSignal,
        format!("the signal could not be read: {detail}"),
    )
}

/// 400 `InvalidSignal` unless the body is of `expected` (parameters such as `charset` aside).
fn require_media_type(headers: &HeaderMap, expected: &str) -> Result<(), ApiError> {
    let media_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(str::trim);
    if media_type.is_some_and(|media_type| media_type.eq_ignore_ascii_case(expected)) {
        Ok(())
    } else {
        Err(invalid(&format!("expected a body of type {expected}")))
    }
}

/// RFC 8935 §2.3's refusal: 400 with `{"err", "description"}`.
fn set_error(reason: RefusalReason, description: &str) -> Response {
    tracing::info!(
        err = reason.as_str(),
        description,
        "security event token refused"
    );
    let body = SetError {
        err: reason.as_str(),
        description: description.to_owned(),
    };
    let mut response = (StatusCode::BAD_REQUEST, Json(body)).into_response();
    response.extensions_mut().insert(OwnErrorFormat);
    response
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.to_ascii_lowercase().contains("text/html"))
}

/// A page for the person who followed Meta's link. The code is one this service gave out
/// (it was found), escaped all the same.
fn status_page(status: &DataDeletionStatus) -> String {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Data deletion request</title></head><body>\
         <h1>Your data deletion request is complete</h1>\
         <p>Confirmation code: <code>{}</code></p>\
         <p>Completed at {}. Your Facebook login and the data it brought are deleted; an \
         account with no other way to sign in was deleted with it.</p></body></html>",
        escape(&status.confirmation_code),
        escape(&status.completed_at),
    )
}
