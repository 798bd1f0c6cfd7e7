//! Per-client-IP rate limit (token bucket) with problem+json 429 and `Retry-After`.

use super::client_ip::ClientIp;
use super::error::ApiError;
use super::{AppState, RateLimit};
use axum::body::Body;
use axum::http::Request;
use axum::response::IntoResponse;
use governor::middleware::NoOpMiddleware;
use social_login_domain::ErrorCode;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_governor::GovernorError;
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use utoipa_axum::router::OpenApiRouter;

type Layer = GovernorLayer<ClientIpKey, NoOpMiddleware, Body>;

/// The per-IP limit of the endpoints that need no bearer token, or none: one set of
/// buckets, shared by every resource's router that applies it.
#[derive(Clone)]
pub struct Limit(Option<Layer>);

impl Limit {
    pub fn new(limit: Option<RateLimit>) -> Self {
        Self(limit.map(layer))
    }

    /// `routes`, limited.
    pub fn apply(&self, routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
        match &self.0 {
            Some(layer) => routes.layer(layer.clone()),
            None => routes,
        }
    }
}

/// Keys each bucket on the [`ClientIp`] the `client_ip::record` middleware resolved (behind
/// trusted proxies, the forwarded client; otherwise the peer), IPv6 clients by their
/// network of `ipv6_prefix` bits ([`ClientIp::network`]).
#[derive(Debug, Clone, Copy)]
pub struct ClientIpKey {
    pub ipv6_prefix: u8,
}

impl KeyExtractor for ClientIpKey {
    type Key = IpAddr;

    /// Missing only if the router lost its `client_ip::record` layer: a loud 500 then,
    /// rather than one bucket shared by everyone.
    fn extract<T>(&self, request: &Request<T>) -> Result<IpAddr, GovernorError> {
        request
            .extensions()
            .get::<ClientIp>()
            .map(|client| client.network(self.ipv6_prefix))
            .ok_or(GovernorError::UnableToExtractKey)
    }
}

/// How often buckets of clients that went quiet are dropped, so memory stays bounded by
/// the number of recently active IPs.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

pub fn layer(limit: RateLimit) -> Layer {
    let config = Arc::new(
        GovernorConfigBuilder::default()
            .period(limit.period)
            .burst_size(limit.burst.max(1))
            .key_extractor(ClientIpKey {
                ipv6_prefix: limit.ipv6_prefix,
            })
            .finish()
            .expect("period and burst are non-zero"),
    );
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        let config = Arc::downgrade(&config);
        runtime.spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                // Ends with the router that owns the limiter.
                let Some(config) = config.upgrade() else {
                    break;
                };
                config.limiter().retain_recent();
            }
        });
    }
    GovernorLayer::new(config).error_handler(|error| match error {
        GovernorError::TooManyRequests { wait_time, .. } => {
            ApiError::rate_limited(wait_time).into_response()
        }
        _ => ApiError::of(ErrorCode::InternalError).into_response(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_key_is_the_resolved_client_ip_not_the_peer() {
        let mut request = Request::new(());
        let peer: std::net::SocketAddr = "10.0.0.1:40000".parse().unwrap();
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(peer));
        let client: IpAddr = "203.0.113.1".parse().unwrap();
        request.extensions_mut().insert(ClientIp(client));
        assert_eq!(KEY_64.extract(&request).unwrap(), client);
    }

    const KEY_64: ClientIpKey = ClientIpKey { ipv6_prefix: 64 };

    fn key_of(client: &str, ipv6_prefix: u8) -> String {
        let mut request = Request::new(());
        request
            .extensions_mut()
            .insert(ClientIp(client.parse().unwrap()));
        let key = ClientIpKey { ipv6_prefix };
        key.extract(&request).unwrap().to_string()
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_network_and_ipv4_clients_by_their_address() {
        let cases = [
            ("2001:db8:1:2::1", 64, "2001:db8:1:2::"),
            ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::"),
            ("2001:db8:1:2ff::1", 56, "2001:db8:1:200::"),
            ("2001:db8:1:2::1", 48, "2001:db8:1::"),
            ("2001:db8:1:2::1", 128, "2001:db8:1:2::1"),
            ("203.0.113.7", 64, "203.0.113.7"),
            ("203.0.113.7", 32, "203.0.113.7"),
        ];
        for (client, prefix, key) in cases {
            assert_eq!(key_of(client, prefix), key, "{client}/{prefix}");
        }
    }

    #[test]
    fn two_addresses_of_one_64_share_a_key_and_neighbouring_64s_do_not() {
        assert_eq!(
            key_of("2001:db8::1", 64),
            key_of("2001:db8::ffff:ffff:ffff:ffff", 64)
        );
        assert_ne!(key_of("2001:db8::1", 64), key_of("2001:db8:0:1::1", 64));
    }

    #[test]
    fn a_request_without_a_resolved_client_ip_has_no_key() {
        let request = Request::new(());
        assert!(matches!(
            KEY_64.extract(&request),
            Err(GovernorError::UnableToExtractKey)
        ));
    }
}
