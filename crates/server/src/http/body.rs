//! Reads each request body in full, within its bounds and its deadline, before any layer or
//! handler answers, and before the request takes an in-flight slot.
//!
//! The deadline (`http.body_read_timeout_seconds`) is the body's own, shorter than the whole
//! request's: a client trickling its body is cut after it, 408 and the connection closed,
//! and meanwhile it holds no slot, so slow bodies cannot shut other clients out.
//!
//! hyper reuses a connection only if the request body was read to its end by the time the
//! response goes out. The rate limit and the bearer check answer without reading the body, and
//! when it had not fully arrived yet (a client that writes head and body separately, a loaded
//! host), hyper sent that answer as keep-alive, found the body unread, and closed the
//! connection right after. The client's next request on it was lost without a response. Read
//! first, every answer leaves the connection clean, or says `Connection: close` when it cannot.

use super::error::ApiError;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use social_login_domain::ErrorCode;
use std::pin::Pin;
use std::time::Duration;

/// The most a body's buffer reserves before its bytes arrive (a usual body fits).
const INITIAL_CAPACITY: usize = 64 * 1024;

/// How far past `max_body_bytes` a body is still read and thrown away, so that a client a
/// little over the limit gets its 413 on a connection it can keep using. Larger bodies are
/// not read: 413 and the connection is closed.
const OVER_LIMIT_DRAIN_BYTES: usize = 1 << 20;

/// `http.max_body_bytes` and `http.body_read_timeout_seconds`, and whether the relay is on.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit {
    pub max_bytes: usize,
    pub read_timeout: Duration,
    /// `[relay] enabled`: only then does a `/relay/...` path take a larger body.
    pub relay: bool,
}

impl BodyLimit {
    /// The limit of a request to `path`: a relayed call may send up to 1 MiB, whatever
    /// smaller bound the other endpoints keep. With the relay off, `/relay/...` is a 404
    /// like any other unknown path, and reads no more than they do.
    pub fn for_path(self, path: &str) -> Self {
        if self.relay && path.starts_with(super::relay::RELAY_PREFIX) {
            return Self {
                max_bytes: self.max_bytes.max(super::relay::MAX_RELAY_BODY_BYTES),
                ..self
            };
        }
        self
    }
}

/// The body as the layers and handlers behind it see it: in memory, at most the limit.
pub async fn read_whole<F>(
    BodyLimit {
        max_bytes,
        read_timeout,
        ..
    }: BodyLimit,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response
where
    F: Future<Output = Response>,
{
    let (parts, body) = request.into_parts();
    if body.is_end_stream() {
        return next(Request::from_parts(parts, body)).await;
    }
    let drain_limit = max_bytes.saturating_add(OVER_LIMIT_DRAIN_BYTES);
    let declared = declared_length(&parts.headers);
    if declared.is_some_and(|length| length > drain_limit) {
        return too_large(false);
    }
    // The buffer grows as bytes come: a length the client announces reserves at most this.
    let capacity = declared.unwrap_or(0).min(max_bytes).min(INITIAL_CAPACITY);
    let read = tokio::time::timeout(read_timeout, read(body, capacity, max_bytes, drain_limit));
    let Ok(read) = read.await else {
        // The rest of the body may still be on its way: the connection cannot be reused.
        return ApiError::of(ErrorCode::RequestTimeout)
            .closing_connection()
            .into_response();
    };
    match read {
        Read::Whole(bytes) => next(Request::from_parts(parts, Body::from(bytes))).await,
        Read::TooLarge { drained } => too_large(drained),
        // The client broke its own framing or went away mid-body: nothing to reuse.
        Read::Broken => ApiError::validation("request body could not be read")
            .closing_connection()
            .into_response(),
    }
}

enum Read {
    Whole(Bytes),
    /// Over `max_bytes`; `drained` if read to its end anyway (the connection is clean).
    TooLarge {
        drained: bool,
    },
    Broken,
}

async fn read(mut body: Body, capacity: usize, max_bytes: usize, drain_limit: usize) -> Read {
    let mut kept = Vec::with_capacity(capacity);
    let mut total = 0usize;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let Ok(frame) = frame else {
            return Read::Broken;
        };
        // Trailers carry nothing the service reads.
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total > drain_limit {
            return Read::TooLarge { drained: false };
        }
        if total <= max_bytes {
            kept.extend_from_slice(&data);
        }
    }
    if total > max_bytes {
        Read::TooLarge { drained: true }
    } else {
        Read::Whole(Bytes::from(kept))
    }
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn too_large(drained: bool) -> Response {
    let error = ApiError::of(ErrorCode::PayloadTooLarge);
    let error = if drained {
        error
    } else {
        error.closing_connection()
    };
    error.into_response()
}
