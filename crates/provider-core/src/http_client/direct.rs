//! A provider call on hyper's pooled client: the request as built, a default `Accept`,
//! one deadline over the whole call.

use super::{Answer, SendError};
use bytes::Bytes;
use http::Uri;
use http::header::{ACCEPT, HeaderValue};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::CertificateDer;
use std::error::Error as _;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

type Connector = TimedConnect<HttpsConnector<HttpConnector>>;

/// TCP keepalive as reqwest sets it: a pooled connection whose peer vanished is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);
const KEEPALIVE_RETRIES: u32 = 3;

#[derive(Clone)]
pub(super) struct DirectClient(Client<Connector, Full<Bytes>>);

impl std::fmt::Debug for DirectClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DirectClient")
    }
}

impl DirectClient {
    /// The pooled client on [`connector`].
    pub(super) fn new(
        connect_timeout: Duration,
        extra_roots: Vec<CertificateDer<'static>>,
    ) -> Result<Self, String> {
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .timer(TokioTimer::new())
            .build(connector(connect_timeout, extra_roots)?);
        Ok(Self(client))
    }

    /// Sends `request` with the default headers it lacks and reads the answer, all of it
    /// within `timeout`.
    pub(super) async fn send(
        &self,
        mut request: http::Request<Full<Bytes>>,
        limit: usize,
        timeout: Duration,
    ) -> Result<Answer, SendError> {
        let headers = request.headers_mut();
        headers
            .entry(ACCEPT)
            .or_insert(HeaderValue::from_static("*/*"));
        let call = async {
            let response = self.0.request(request).await.map_err(request_failure)?;
            let (parts, body) = response.into_parts();
            let body = Limited::new(body, limit)
                .collect()
                .await
                .map_err(|error| match error.is::<LengthLimitError>() {
                    true => SendError::TooLarge(limit),
                    false => SendError::Transport("sent an unreadable body"),
                })?
                .to_bytes();
            Ok(Answer {
                status: parts.status,
                headers: parts.headers,
                body: body.into(),
            })
        };
        tokio::time::timeout(timeout, call)
            .await
            .unwrap_or(Err(SendError::Transport("timed out")))
    }
}

/// TLS as reqwest sets it up: rustls on aws-lc (or the process's installed provider),
/// certificates checked by the platform's verifier (trusting `extra_roots` too: tests
/// only); TCP without Nagle's delay and with keepalive; `connect_timeout` over the whole
/// connect (name lookup, TCP, TLS handshake). HTTP/1.1 only: a provider call is one small
/// request and answer, which HTTP/2 would not make cheaper.
pub(super) fn connector(
    connect_timeout: Duration,
    extra_roots: Vec<CertificateDer<'static>>,
) -> Result<Connector, String> {
    let provider = CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    let verifier = if extra_roots.is_empty() {
        rustls_platform_verifier::Verifier::new(provider.clone())
    } else {
        rustls_platform_verifier::Verifier::new_with_extra_roots(extra_roots, provider.clone())
    }
    .map_err(|error| error.to_string())?;
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| error.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_nodelay(true);
    tcp.set_keepalive(Some(KEEPALIVE));
    tcp.set_keepalive_interval(Some(KEEPALIVE));
    tcp.set_keepalive_retries(Some(KEEPALIVE_RETRIES));
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(tcp);
    Ok(TimedConnect {
        inner: https,
        timeout: connect_timeout,
    })
}

/// A connector whose every connect ends within `timeout`. The deadline of a call does not
/// cover a connect the pool keeps going after the call took an idle connection instead;
/// this one does, so a peer that never finishes its handshake holds no socket for long.
#[derive(Clone)]
pub(super) struct TimedConnect<C> {
    inner: C,
    timeout: Duration,
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<C> tower_service::Service<Uri> for TimedConnect<C>
where
    C: tower_service::Service<Uri>,
    C::Error: Into<BoxError>,
    C::Future: Send + 'static,
{
    type Response = C::Response;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<C::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, destination: Uri) -> Self::Future {
        let connecting = self.inner.call(destination);
        let timeout = self.timeout;
        Box::pin(async move {
            match tokio::time::timeout(timeout, connecting).await {
                Ok(connected) => connected.map_err(Into::into),
                Err(_) => Err(Box::new(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "connect timed out",
                )) as BoxError),
            }
        })
    }
}

/// The phrases reqwest's failures map to (`crate::failure::transport_failure`): a connect
/// that timed out is "timed out", any other connect failure "could not be reached".
fn request_failure(error: hyper_util::client::legacy::Error) -> SendError {
    let mut cause = error.source();
    let mut timed_out = false;
    while let Some(current) = cause {
        timed_out |= current
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut);
        cause = current.source();
    }
    SendError::Transport(match (timed_out, error.is_connect()) {
        (true, _) => "timed out",
        (false, true) => "could not be reached",
        (false, false) => "request failed",
    })
}
