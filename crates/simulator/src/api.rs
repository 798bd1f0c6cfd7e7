//! The small authenticated API every simulated provider serves under its own prefix, at
//! `{prefix}/api/...`: what the service's relay calls for a user with the provider access
//! token it stores, and what its tests check the relay against.
//!
//! Every method is routed here (where the provider's own endpoints do not already answer a
//! path under `api/`, as GitHub's `api/user` does). The token is checked first
//! ([`gate`]): `Authorization: Bearer <token>` (the scheme in any case), else the query's
//! `access_token` or `oauth_token` (Yandex, VK and WeChat want it there). It must be a live
//! access token this provider issued: not revoked, not expired by the controls. Otherwise
//! 401 with `WWW-Authenticate: Bearer error="invalid_token"`. Then, by the path after
//! `api/`:
//!
//! - `me` (GET): `{"provider", "id", "name", "email"}` of the token's user;
//! - `echo`, `echo/...` (any method): what was received ([`echo`]), with response headers
//!   a relay must filter;
//! - `bytes?n=N` (GET): N bytes of `application/octet-stream`, streamed in 64 KiB frames,
//!   N at most 64 MiB ([`bytes`]);
//! - `redirect` (GET): 302 to `{prefix}/api/me`;
//! - `status/{code}` (any method): that status, clamped to 200..=599, `{"status": code}`;
//! - anything else: 404.
//!
//! Errors are small JSON objects `{"error", "error_description"}`. Request bodies are read
//! up to 2 MiB (413 above). Each request is logged (endpoint `api`, outcome) and plays the
//! faults injected on [`crate::Endpoint::Api`].

mod answers;
mod bytes;
pub(crate) mod echo;
mod gate;

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::Refusal;
use crate::log::RequestRecord;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::any;
use std::sync::Arc;

/// The largest request body the API reads.
const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The API route of `provider`, to nest under its prefix.
pub fn routes(provider: Provider) -> Router<Arc<SimState>> {
    let api = any(
        move |State(sim): State<Arc<SimState>>, request: Request| async move {
            serve(&sim, provider, request).await
        },
    );
    // `api/` itself is an unknown path like any other, answered in JSON too.
    Router::new()
        .route("/api/", api.clone())
        .route("/api/{*rest}", api)
}

/// Logs the request, plays an injected fault, checks the token, answers; logged with its
/// outcome either way.
async fn serve(sim: &SimState, provider: Provider, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let record = RequestRecord::new(provider, Endpoint::Api, &parts.headers);
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    let answer = match gate::holder(sim, provider, &parts) {
        Ok(issued) => route(sim, (provider, &issued), &parts, body).await,
        Err(refusal) => Err(refusal),
    };
    match answer {
        Ok(response) => sim.finish(record, "ok", response),
        Err(refusal) => sim.finish(record, &refusal.outcome, *refusal.response),
    }
}

/// The answer of the path after `api/`, as received (still percent-encoded).
async fn route(
    sim: &SimState,
    (provider, issued): (Provider, &IssuedToken),
    parts: &Parts,
    body: Body,
) -> Result<Response, Refusal> {
    // Nested under the provider's prefix, the path starts at `/api/`.
    let rest = parts.uri.path().strip_prefix("/api/").unwrap_or_default();
    let (first, more) = match rest.split_once('/') {
        Some((first, more)) => (first, Some(more)),
        None => (rest, None),
    };
    let method = &parts.method;
    match (first, more) {
        ("me", None) => answers::get_only(method).map(|()| answers::me(provider, issued)),
        ("echo", _) => echo::answer(parts, rest, body).await,
        ("bytes", None) => answers::get_only(method).and_then(|()| bytes::answer(parts)),
        ("redirect", None) => {
            let me = format!("{}/{}/api/me", sim.base_url, provider.prefix());
            answers::get_only(method).map(|()| answers::redirect(&me))
        }
        ("status", Some(code)) => answers::status(code),
        _ => Err(answers::not_found()),
    }
}
