//! `api/bytes?n=N`: N bytes streamed in 64 KiB frames, never held whole (each frame is a
//! slice of one static buffer), so that a test can watch whether a client's memory stays
//! bounded while it reads a large answer.

use super::answers::refusal;
use crate::flow::Refusal;
use axum::body::{Body, Bytes, HttpBody};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The most a request may ask for.
const MAX_BYTES: u64 = 64 * 1024 * 1024;
const FRAME: usize = 64 * 1024;

/// What every frame is cut from.
static ZEROS: [u8; FRAME] = [0; FRAME];

pub fn answer(parts: &Parts) -> Result<Response, Refusal> {
    let query = parts.uri.query().unwrap_or_default();
    let n = url::form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| name == "n")
        .and_then(|(_, n)| n.parse::<u64>().ok())
        .filter(|n| *n <= MAX_BYTES)
        .ok_or_else(|| {
            refusal(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "n must be a number of bytes up to 64 MiB",
            )
        })?;
    let body = Body::new(Zeros { left: n });
    Ok(([(header::CONTENT_TYPE, "application/octet-stream")], body).into_response())
}

/// A body of `left` zero bytes still to send.
struct Zeros {
    left: u64,
}

impl HttpBody for Zeros {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let size = usize::try_from(self.left).map_or(FRAME, |left| left.min(FRAME));
        self.left -= size as u64;
        Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(&ZEROS[..size])))))
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}
