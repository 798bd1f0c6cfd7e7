//! Per-client-IP rate limit (token bucket) with problem+json 429 and `Retry-After`.

use super::RateLimit;
use super::client_ip::ClientIp;
use super::error::ApiError;
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

type Layer = GovernorLayer<ClientIpKey, NoOpMiddleware, Body>;

/// Keys each bucket on the [`ClientIp`] the `client_ip::record` middleware resolved (behind
/// trusted proxies, the forwarded client; otherwise the peer).
#[derive(Debug, Clone, Copy)]
pub struct ClientIpKey;

impl KeyExtractor for ClientIpKey {
    type Key = IpAddr;

    /// Missing only if the router lost its `client_ip::record` layer: a loud 500 then,
    /// rather than one bucket shared by everyone.
    fn extract<T>(&self, request: &Request<T>) -> Result<IpAddr, GovernorError> {
        request
            .extensions()
            .get::<ClientIp>()
            .map(|client| client.0)
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
            .key_extractor(ClientIpKey)
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
        assert_eq!(ClientIpKey.extract(&request).unwrap(), client);
    }

    #[test]
    fn a_request_without_a_resolved_client_ip_has_no_key() {
        let request = Request::new(());
        assert!(matches!(
            ClientIpKey.extract(&request),
            Err(GovernorError::UnableToExtractKey)
        ));
    }
}
