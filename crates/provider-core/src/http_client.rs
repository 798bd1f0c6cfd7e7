//! The one pooled HTTP client every adapter shares, and how a provider call is sent.
//!
//! Requests are built with reqwest's builder (the quirks add their headers and queries to
//! it), and sent by [`ProviderHttp::send`]: a call that goes straight to the provider takes
//! hyper's client ([`direct`]), which skips what reqwest does per request and we do not use
//! (it parses the URL again for its redirect policy and again for the response, clones its
//! stack); a call that a proxy in `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` must carry (and
//! `NO_PROXY` does not exempt) is sent by reqwest, which speaks to proxies.

mod direct;
#[cfg(test)]
mod tests;

use crate::failure::transport_failure;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode};
use http_body_util::Full;
use hyper_util::client::proxy::matcher::Matcher;
use social_login_domain::ProviderKey;
use social_login_ports::TRACE_TARGET;
use std::sync::Arc;
use std::time::Duration;
use tracing::Instrument;

/// `User-Agent` sent on every provider call. GitHub's REST API rejects requests without one.
pub const USER_AGENT: &str = concat!("social-login/", env!("CARGO_PKG_VERSION"));

/// Longest a connect (name lookup, TCP, TLS handshake) may take, whatever the total budget is.
const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The shared client could not be built (TLS back end failed to initialise).
#[derive(Debug, thiserror::Error)]
#[error("could not build the provider HTTP client: {0}")]
pub struct HttpClientError(String);

/// The provider calls' client: one connection pool per path for the whole process. Cheap to
/// clone (the pools are shared).
///
/// Redirects are never followed: a token or profile endpoint that redirects is
/// misconfigured or hostile, and following it would replay credentials to another URL; the
/// 3xx is the answer. The timeout bounds each whole call (connect, send, read the body);
/// past it the call fails, which the adapters report as a provider failure (502), never as
/// a hang.
#[derive(Debug, Clone)]
pub struct ProviderHttp {
    reqwest: reqwest::Client,
    direct: direct::DirectClient,
    proxies: Arc<Matcher>,
    timeout: Duration,
    /// Whose calls these are, for their traced spans.
    provider: Option<ProviderKey>,
    /// The `User-Agent` of every call that sets none: the provider's own (the `user_agent`
    /// knob: Reddit limits generic ones), else [`USER_AGENT`].
    user_agent: HeaderValue,
}

/// What a provider call is for, as its traced span names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// A code exchange or a refresh.
    Token,
    Userinfo,
    Emails,
    Jwks,
    Discovery,
    Revocation,
    /// A call of the provider's API relayed for a user.
    Api,
}

impl CallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Token => "token",
            Self::Userinfo => "userinfo",
            Self::Emails => "emails",
            Self::Jwks => "jwks",
            Self::Discovery => "discovery",
            Self::Revocation => "revocation",
            Self::Api => "api",
        }
    }

    fn span_name(self) -> &'static str {
        match self {
            Self::Token => "provider token",
            Self::Userinfo => "provider userinfo",
            Self::Emails => "provider emails",
            Self::Jwks => "provider jwks",
            Self::Discovery => "provider discovery",
            Self::Revocation => "provider revocation",
            Self::Api => "provider api",
        }
    }
}

/// A provider's answer, its body read whole. `Debug` shows the body's length only: a token
/// endpoint's holds the tokens.
#[derive(derive_more::Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    #[debug("{} bytes", body.len())]
    pub body: Vec<u8>,
}

pub use crate::failure::SendError;

/// Builds the client all providers share, with proxies as the environment names them.
///
/// reqwest reads the same variables itself, once, when its client is built (its default,
/// with the same matcher and no system settings on top), so both paths agree on which calls
/// a proxy carries.
pub fn build_http_client(timeout: Duration) -> Result<ProviderHttp, HttpClientError> {
    ProviderHttp::with_proxies(timeout, Matcher::from_env(), None, Vec::new())
}

impl ProviderHttp {
    /// `proxy`: the proxy reqwest is told of in place of the environment's (tests only:
    /// the process environment is shared by every test of a binary); `extra_roots`:
    /// certificate authorities trusted beside the platform's (tests only).
    fn with_proxies(
        timeout: Duration,
        proxies: Matcher,
        proxy: Option<reqwest::Proxy>,
        extra_roots: Vec<rustls::pki_types::CertificateDer<'static>>,
    ) -> Result<Self, HttpClientError> {
        let connect_timeout = timeout.min(MAX_CONNECT_TIMEOUT);
        let mut reqwest = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(connect_timeout)
            .timeout(timeout);
        if let Some(proxy) = proxy {
            reqwest = reqwest.proxy(proxy);
        }
        let reqwest = reqwest
            .build()
            .map_err(|error| HttpClientError(error.without_url().to_string()))?;
        Ok(Self {
            reqwest,
            direct: direct::DirectClient::new(connect_timeout, extra_roots)
                .map_err(HttpClientError)?,
            proxies: Arc::new(proxies),
            timeout,
            provider: None,
            user_agent: HeaderValue::from_static(USER_AGENT),
        })
    }

    /// This client (the same pools), its calls traced as `provider`'s.
    pub fn for_provider(&self, provider: ProviderKey) -> Self {
        Self {
            provider: Some(provider),
            ..self.clone()
        }
    }

    /// This client, its calls sent with `agent` as their `User-Agent`.
    pub fn with_user_agent(self, agent: HeaderValue) -> Self {
        Self {
            user_agent: agent,
            ..self
        }
    }

    /// The traced span of one call of `kind` (nothing is made unless traces are exported):
    /// the provider and the endpoint's kind; [`record_status`] adds how it went. Never the
    /// URL, which may carry a token in its query.
    pub fn call_span(&self, kind: CallKind) -> tracing::Span {
        tracing::info_span!(
            target: TRACE_TARGET,
            "provider call",
            otel.name = kind.span_name(),
            otel.kind = "client",
            provider = self.provider.as_ref().map(ProviderKey::as_str),
            provider.endpoint = kind.as_str(),
            http.response.status_code = tracing::field::Empty,
            error.type = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
        )
    }

    /// The reqwest client requests are built on (and a proxied call is sent by).
    pub fn reqwest(&self) -> &reqwest::Client {
        &self.reqwest
    }

    /// A GET of `url`, to add headers to and [`send`](Self::send).
    pub fn get(&self, url: url::Url) -> reqwest::RequestBuilder {
        self.reqwest.get(url)
    }

    /// Sends a request built on [`reqwest`](Self::reqwest) and reads its answer, refusing a
    /// body of more than `limit` bytes.
    pub async fn send(
        &self,
        request: reqwest::RequestBuilder,
        limit: usize,
        kind: CallKind,
    ) -> Result<Answer, SendError> {
        let span = self.call_span(kind);
        let answer = self.send_now(request, limit).instrument(span.clone()).await;
        record_answer(&span, &answer);
        answer
    }

    async fn send_now(
        &self,
        request: reqwest::RequestBuilder,
        limit: usize,
    ) -> Result<Answer, SendError> {
        let mut request = request.build().map_err(|_| SendError::Unbuildable)?;
        self.add_user_agent(request.headers_mut());
        let uri =
            http::Uri::try_from(request.url().as_str()).map_err(|_| SendError::Unbuildable)?;
        let in_memory = request.body().is_none_or(|body| body.as_bytes().is_some());
        if !in_memory || self.proxies.intercept(&uri).is_some() {
            return self.through_reqwest(request, limit).await;
        }
        let body = match request.body_mut().take() {
            Some(body) => Bytes::copy_from_slice(body.as_bytes().unwrap_or_default()),
            None => Bytes::new(),
        };
        let mut direct = http::Request::new(Full::new(body));
        *direct.method_mut() = request.method().clone();
        *direct.uri_mut() = uri;
        *direct.headers_mut() = std::mem::take(request.headers_mut());
        self.direct.send(direct, limit, self.timeout).await
    }

    /// Sends a request in `http`'s types (oauth2's token request) as [`send`](Self::send)
    /// does.
    pub async fn send_http(
        &self,
        request: http::Request<Vec<u8>>,
        limit: usize,
        kind: CallKind,
    ) -> Result<Answer, SendError> {
        let span = self.call_span(kind);
        let answer = self
            .send_http_now(request, limit)
            .instrument(span.clone())
            .await;
        record_answer(&span, &answer);
        answer
    }

    async fn send_http_now(
        &self,
        mut request: http::Request<Vec<u8>>,
        limit: usize,
    ) -> Result<Answer, SendError> {
        self.add_user_agent(request.headers_mut());
        if self.proxies.intercept(request.uri()).is_some() {
            let request =
                reqwest::Request::try_from(request).map_err(|_| SendError::Unbuildable)?;
            return self.through_reqwest(request, limit).await;
        }
        let direct = request.map(|body| Full::new(Bytes::from(body)));
        self.direct.send(direct, limit, self.timeout).await
    }

    /// Sends `request` (built on [`reqwest`](Self::reqwest)) as [`send`](Self::send) does,
    /// but returns the answer with its body still to read, to be streamed (a relayed call):
    /// its span ends with the answer's head.
    pub async fn send_streamed(
        &self,
        mut request: reqwest::Request,
        kind: CallKind,
    ) -> Result<reqwest::Response, reqwest::Error> {
        self.add_user_agent(request.headers_mut());
        let span = self.call_span(kind);
        let response = self.reqwest.execute(request).instrument(span.clone()).await;
        match &response {
            Ok(response) => record_status(&span, response.status()),
            Err(_) => record_failure(&span, "transport"),
        }
        response
    }

    /// This client's `User-Agent`, unless the request names its own.
    fn add_user_agent(&self, headers: &mut HeaderMap) {
        (headers.entry(http::header::USER_AGENT)).or_insert_with(|| self.user_agent.clone());
    }

    async fn through_reqwest(
        &self,
        request: reqwest::Request,
        limit: usize,
    ) -> Result<Answer, SendError> {
        let transport = |error: reqwest::Error| SendError::Transport(transport_failure(&error));
        let mut response = self.reqwest.execute(request).await.map_err(transport)?;
        let status = response.status();
        let headers = std::mem::take(response.headers_mut());
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            if body.len() + chunk.len() > limit {
                return Err(SendError::TooLarge(limit));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Answer {
            status,
            headers,
            body,
        })
    }
}

/// Writes a call's outcome on its span: the status, or the kind of failure.
fn record_answer(span: &tracing::Span, answer: &Result<Answer, SendError>) {
    match answer {
        Ok(answer) => record_status(span, answer.status),
        Err(error) => record_failure(
            span,
            match error {
                SendError::Unbuildable => "unbuildable",
                SendError::Transport(_) => "transport",
                SendError::TooLarge(_) => "too_large",
            },
        ),
    }
}

/// A provider call that got no answer, and why (`error.type`).
fn record_failure(span: &tracing::Span, kind: &'static str) {
    span.record("error.type", kind);
    span.record("otel.status_code", "error");
}

/// Writes the provider's status on a call's span; a 5xx marks it failed.
fn record_status(span: &tracing::Span, status: StatusCode) {
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        span.record("otel.status_code", "error");
    }
}

/// A client for tests: a 5 s timeout, proxies as the environment names them.
#[cfg(any(test, feature = "strategies"))]
pub fn test_client() -> ProviderHttp {
    build_http_client(Duration::from_secs(5)).expect("the provider HTTP client builds")
}
