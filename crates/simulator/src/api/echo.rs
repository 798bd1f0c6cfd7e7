//! `api/echo`: what the provider received, so that a test can see what the relay forwarded
//! (method, path, query, labels, body, header names, its `User-Agent`), answered with the headers a relay
//! must not pass on blindly (a cookie, a secret) beside the ones it may (rate limits).

use super::BODY_LIMIT;
use super::answers::refusal;
use crate::flow::Refusal;
use axum::Json;
use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The headers every echo answers with (beside its JSON `Content-Type`).
pub const ANSWER_HEADERS: [(&str, &str); 6] = [
    ("set-cookie", "sim_session=1; Path=/"),
    ("x-ratelimit-limit", "5000"),
    ("x-ratelimit-remaining", "4999"),
    ("x-ratelimit-reset", "1700000000"),
    ("retry-after", "1"),
    ("x-provider-secret", "leaked"),
];

/// `path`: what followed `api/`, as received.
pub async fn answer(parts: &Parts, path: &str, body: Body) -> Result<Response, Refusal> {
    let body = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| {
        refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "The body is over 2 MiB",
        )
    })?;
    let text = |name: header::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let received = json!({
        "method": parts.method.as_str(),
        "path": path,
        "query": parts.uri.query(),
        "content_type": text(header::CONTENT_TYPE),
        "accept": text(header::ACCEPT),
        "user_agent": text(header::USER_AGENT),
        "body": String::from_utf8_lossy(&body),
        "header_names": header_names(&parts.headers),
        "token_seen": true,
    });
    Ok((ANSWER_HEADERS, Json(received)).into_response())
}

/// The names of the headers received, lowercase (as HTTP/1 parsing leaves them) and sorted.
fn header_names(headers: &HeaderMap) -> Vec<&str> {
    let mut names: Vec<&str> = headers.keys().map(|name| name.as_str()).collect();
    names.sort_unstable();
    names
}
