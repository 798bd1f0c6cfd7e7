//! `Cache-Control: no-store` on every answer that did not choose its own caching.
//!
//! Login results, refreshes and registrations carry tokens, and the rest (a user's email,
//! linked accounts, events) is personal: no browser, proxy or CDN may keep a copy. Default
//! on, so a new endpoint cannot forget it; only the public documents (`/.well-known/…`) set
//! a `Cache-Control` of their own. `Pragma: no-cache` is for HTTP/1.0 caches.

use axum::http::{HeaderValue, header};
use axum::response::Response;

/// Applied to each answer (a `tower::util::MapResponseLayer`: a plain function of the
/// response, so no boxed future per request as a `from_fn` middleware costs).
pub fn unless_cacheable(mut response: Response) -> Response {
    let headers = response.headers_mut();
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    }
    response
}
