//! The API's small answers (`me`, `redirect`, `status/{code}`) and its refusals, each a
//! JSON object.

use crate::config::Provider;
use crate::flow::Refusal;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refusal with `status` and the body `{"error", "error_description"}`; the log keeps
/// `error` as the outcome.
pub fn refusal(status: StatusCode, error: &str, description: &str) -> Refusal {
    let body = json!({"error": error, "error_description": description});
    Refusal::new(error, (status, Json(body)))
}

/// `Ok` for a GET (or HEAD, which is answered as a GET without its body).
pub fn get_only(method: &Method) -> Result<(), Refusal> {
    if method == Method::GET || method == Method::HEAD {
        return Ok(());
    }
    let mut refusal = refusal(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "This path answers GET only",
    );
    let allow = header::HeaderValue::from_static("GET, HEAD");
    refusal.response.headers_mut().insert(header::ALLOW, allow);
    Err(refusal)
}

pub fn not_found() -> Refusal {
    refusal(StatusCode::NOT_FOUND, "not_found", "No such API path")
}

/// The token's user: the seeded subject, name and email.
pub fn me(provider: Provider, issued: &IssuedToken) -> Response {
    let user = &issued.user;
    let body = json!({
        "provider": provider.prefix(),
        "id": user.id,
        "name": user.name,
        "email": user.email,
    });
    Json(body).into_response()
}

/// A 302 to `location`, for a client that must not follow it.
pub fn redirect(location: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, location)]).into_response()
}

/// The status `code` names, clamped to 200..=599 (no informational status can be a final
/// answer), with `{"status": code}`; no body where the status forbids one.
pub fn status(code: &str) -> Result<Response, Refusal> {
    let code: u16 = code.parse().map_err(|_| {
        refusal(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "The status must be a number",
        )
    })?;
    let status = StatusCode::from_u16(code.clamp(200, 599)).unwrap_or(StatusCode::OK);
    let bodiless = [
        StatusCode::NO_CONTENT,
        StatusCode::RESET_CONTENT,
        StatusCode::NOT_MODIFIED,
    ];
    if bodiless.contains(&status) {
        return Ok(status.into_response());
    }
    Ok((status, Json(json!({"status": status.as_u16()}))).into_response())
}
