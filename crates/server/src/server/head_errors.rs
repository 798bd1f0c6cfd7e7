//! Answers to request heads hyper cannot parse, with a body like every other error.
//!
//! On a malformed head, an oversized URI or oversized headers, hyper answers 400, 414 or 431
//! itself, before any service runs, with an empty body. This wrapper of the connection's
//! stream recognises that answer as it is written (one of those statuses with
//! `content-length: 0` and no `content-type`: the router's own errors always carry
//! problem+json) and writes the same status with the problem+json body instead, then the
//! connection closes as hyper intended.

use crate::http::error::standard_problem_body;
use social_login_domain::ErrorCode;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The replacements, made once: status line prefix and the whole answer.
static ANSWERS: LazyLock<[(&'static [u8], Vec<u8>); 3]> = LazyLock::new(|| {
    [
        (
            &b"400"[..],
            answer(ErrorCode::MalformedRequest, "400 Bad Request"),
        ),
        (
            &b"414"[..],
            answer(ErrorCode::UriTooLong, "414 URI Too Long"),
        ),
        (
            &b"431"[..],
            answer(
                ErrorCode::HeadersTooLarge,
                "431 Request Header Fields Too Large",
            ),
        ),
    ]
});

fn answer(code: ErrorCode, status_line: &str) -> Vec<u8> {
    let body = standard_problem_body(code);
    let mut answer = format!(
        "HTTP/1.1 {status_line}\r\ncontent-type: application/problem+json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    answer
}

/// The answer to write instead of `written`, when `written` is hyper's own bodiless answer
/// to a head it could not parse.
fn replacement(written: &[u8]) -> Option<&'static [u8]> {
    let rest = written.strip_prefix(b"HTTP/1.1 ")?;
    let (_, answer) = ANSWERS
        .iter()
        .find(|(status, _)| rest.starts_with(status))?;
    let end = written.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = written[..end].to_ascii_lowercase();
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    (has(b"\r\ncontent-length: 0") && !has(b"\r\ncontent-type:")).then_some(answer.as_slice())
}

/// A connection's stream whose parse-error answers get a body.
pub struct ProblemHeads<T> {
    inner: T,
    /// A replacement being written, and how much of it is out.
    pending: Option<(&'static [u8], usize)>,
}

impl<T> ProblemHeads<T> {
    pub fn new(inner: T) -> Self {
        Self {
            inner,
            pending: None,
        }
    }
}

impl<T: AsyncWrite + Unpin> ProblemHeads<T> {
    /// Writes what is left of a replacement; ready once it is all out.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((answer, sent)) = self.pending {
            let written = ready!(Pin::new(&mut self.inner).poll_write(cx, &answer[sent..]))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            let sent = sent + written;
            self.pending = (sent < answer.len()).then_some((answer, sent));
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `written` (all of it, as hyper sees it) by writing its replacement instead.
    fn replace(
        &mut self,
        cx: &mut Context<'_>,
        answer: &'static [u8],
        taken: usize,
    ) -> Poll<io::Result<usize>> {
        self.pending = Some((answer, 0));
        match self.drain(cx) {
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            // The rest goes out with the next write, flush or shutdown.
            _ => Poll::Ready(Ok(taken)),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ProblemHeads<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ProblemHeads<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        match replacement(buf) {
            Some(answer) => self.replace(cx, answer, buf.len()),
            None => Pin::new(&mut self.inner).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        let first = bufs.iter().find(|buf| !buf.is_empty());
        match first.and_then(|head| replacement(head)) {
            Some(answer) => {
                let taken = bufs.iter().map(|buf| buf.len()).sum();
                self.replace(cx, answer, taken)
            }
            None => Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPER_431: &[u8] =
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Sun, 06 Dec 2026 08:00:00 GMT\r\n\r\n";

    #[test]
    fn hypers_bodiless_parse_error_answers_are_replaced_by_problem_bodies() {
        for (written, code) in [
            (
                b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n".as_slice(),
                "MalformedRequest",
            ),
            (HYPER_431, "HeadersTooLarge"),
            (
                b"HTTP/1.1 414 URI Too Long\r\nContent-Length: 0\r\n\r\n".as_slice(),
                "UriTooLong",
            ),
        ] {
            let answer = String::from_utf8(replacement(written).unwrap().to_vec()).unwrap();
            let (head, body) = answer.split_once("\r\n\r\n").unwrap();
            assert!(
                head.contains("content-type: application/problem+json"),
                "{head}"
            );
            assert!(head.contains("connection: close"));
            let problem: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(problem["code"], code);
            assert!(head.contains(&format!("content-length: {}", body.len())));
        }
    }

    #[test]
    fn the_routers_own_answers_pass_untouched() {
        for written in [
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: 120\r\n\r\n".as_slice(),
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            b"{\"HTTP/1.1 431\"}",
        ] {
            assert_eq!(replacement(written), None);
        }
    }

    #[tokio::test]
    async fn a_replacement_is_written_whole_and_counted_as_what_hyper_wrote() {
        use tokio::io::AsyncWriteExt;
        let mut out = ProblemHeads::new(Vec::new());
        out.write_all(HYPER_431).await.unwrap();
        out.flush().await.unwrap();
        assert_eq!(out.inner, replacement(HYPER_431).unwrap());
        out.write_all(b"after").await.unwrap();
        assert!(out.inner.ends_with(b"}after"));
    }
}
