//! `Cache-Control: no-store` on every answer that did not choose its own caching.
//!
//! Login results, refreshes and registrations carry tokens, and the rest (a user's email,
//! linked accounts, events) is personal: no browser, proxy or CDN may keep a copy. Default
//! on, so a new endpoint cannot forget it; only the public documents (`/.well-known/…`) set
//! a `Cache-Control` of their own. `Pragma: no-cache` is for HTTP/1.0 caches.

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

pub async fn unless_cacheable(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    }
    response
}
