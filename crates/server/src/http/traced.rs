//! The traced span of a request (`[telemetry]`): named `{METHOD} {route}`, with its status
//! and the provider its path names, continuing the caller's trace when a peer of
//! `traceparent_from` sent a W3C `traceparent`. Only the route template is named, never the
//! path itself, the query, a header or the client's address.

use super::client_ip::TrustedProxies;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use social_login_domain::ProviderKey;
use social_login_ports::TRACE_TARGET;
use std::net::SocketAddr;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// `[telemetry] traceparent_from`, parsed: the peers whose trace a request continues.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceParents(pub TrustedProxies);

/// Runs the request inside its traced span (a middleware, on the routes only when traces
/// are exported).
pub async fn traced(State(parents): State<TraceParents>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|path| path.as_str().to_owned());
    // A standard method's name, else `other`: a client's own method never names spans.
    let method = super::metrics::method_label(request.method());
    let name = match &route {
        Some(route) => format!("{method} {route}"),
        None => method.to_string(),
    };
    let provider = route
        .as_deref()
        .and_then(|route| provider_of(route, request.uri().path()));
    let span = tracing::info_span!(
        target: TRACE_TARGET,
        "request",
        otel.name = name,
        otel.kind = "server",
        http.request.method = %method,
        http.route = route.as_deref(),
        provider = provider.as_ref().map(ProviderKey::as_str),
        http.response.status_code = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
    );
    if parents.trust(&request) {
        let caller = TraceContextPropagator::new().extract(&Headers(request.headers()));
        // Fails only when no exporter listens, and then nothing is traced anyway.
        let _ = span.set_parent(caller);
    }
    let response = next.run(request).instrument(span.clone()).await;
    let status = response.status();
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        span.record("otel.status_code", "error");
    }
    response
}

/// The provider key the `{provider}` segment of `route` stands at in `path`, when it is one
/// (an unknown or malformed one names nothing).
fn provider_of(route: &str, path: &str) -> Option<ProviderKey> {
    let at = route
        .split('/')
        .position(|segment| segment == "{provider}")?;
    path.split('/').nth(at)?.parse().ok()
}

impl TraceParents {
    /// Whether the TCP peer of `request` may name its trace (a request without a peer, as
    /// in-process tests send, may not).
    fn trust(&self, request: &Request) -> bool {
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .is_some_and(|ConnectInfo(peer)| self.0.contains(peer.ip()))
    }
}

/// The request's headers as the propagator reads them.
struct Headers<'a>(&'a HeaderMap);

impl Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|name| name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::provider_of;

    #[test]
    fn the_provider_is_read_where_the_route_names_it_and_only_a_key_counts() {
        let route = "/auth/oauth/{provider}/callback";
        let named = provider_of(route, "/auth/oauth/github/callback");
        assert_eq!(named.as_ref().map(|key| key.as_str()), Some("github"));
        assert!(provider_of(route, "/auth/oauth/Not%20A%20Key/callback").is_none());
        assert!(provider_of("/users/me", "/users/me").is_none());
    }
}
