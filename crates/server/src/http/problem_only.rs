//! The last line of the error format (docs/api.md#errors): any 4xx or 5xx that is not already
//! problem+json (an extractor's rejection, a layer's answer, a future handler's mistake) is
//! replaced by one with the `code` of its status.

use super::error::ApiError;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use social_login_domain::ErrorCode;

/// Marks an error response whose format another standard fixes (RFC 8935's
/// `{"err", "description"}` for a refused Security Event Token): it passes as it is.
#[derive(Debug, Clone, Copy)]
pub struct OwnErrorFormat;

/// Applied to each answer (a `tower::util::MapResponseLayer`: a plain function of the
/// response, so no boxed future per request as a `from_fn` middleware costs).
pub fn ensure_problem(response: Response) -> Response {
    let status = response.status();
    let own_format = response.extensions().get::<OwnErrorFormat>().is_some();
    if !(status.is_client_error() || status.is_server_error())
        || is_problem(&response)
        || own_format
    {
        return response;
    }
    let mut problem = ApiError::of(code_for(status)).into_response();
    for name in [header::RETRY_AFTER, header::ALLOW] {
        if let Some(value) = response.headers().get(&name) {
            problem.headers_mut().insert(name, value.clone());
        }
    }
    problem
}

fn is_problem(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value == "application/problem+json")
}

/// The code whose documented status is nearest: the exact one where there is one, else the
/// generic client or server error.
fn code_for(status: StatusCode) -> ErrorCode {
    match status {
        StatusCode::UNAUTHORIZED => ErrorCode::Unauthorized,
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::PayloadTooLarge,
        StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
        StatusCode::SERVICE_UNAVAILABLE => ErrorCode::ServiceUnavailable,
        status if status.is_client_error() => ErrorCode::ValidationError,
        _ => ErrorCode::InternalError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::extract::Request;
    use axum::routing::get;
    use tower::ServiceExt;

    async fn through_the_net(status: StatusCode) -> Response {
        let app = Router::new()
            .route("/", get(move || async move { (status, "plain text") }))
            .layer(tower::util::MapResponseLayer::new(ensure_problem));
        app.oneshot(Request::new(Body::empty())).await.unwrap()
    }

    #[tokio::test]
    async fn a_plain_text_error_becomes_problem_json_with_a_code() {
        for (status, code_status) in [(400, 422), (404, 404), (415, 422), (500, 500), (502, 500)] {
            let response = through_the_net(StatusCode::from_u16(status).unwrap()).await;
            assert_eq!(response.status().as_u16(), code_status, "{status}");
            assert_eq!(
                response.headers()[header::CONTENT_TYPE],
                "application/problem+json"
            );
        }
    }

    #[tokio::test]
    async fn successes_pass_untouched() {
        let response = through_the_net(StatusCode::OK).await;
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/plain; charset=utf-8"
        );
    }
}
