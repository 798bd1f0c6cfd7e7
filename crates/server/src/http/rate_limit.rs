//! Per-client-IP rate limit (token bucket) with problem+json 429 and `Retry-After`.

use super::RateLimit;
use super::error::ApiError;
use axum::body::Body;
use axum::response::IntoResponse;
use governor::middleware::NoOpMiddleware;
use social_login_domain::ErrorCode;
use std::sync::Arc;
use std::time::Duration;
use tower_governor::GovernorError;
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::PeerIpKeyExtractor;

type Layer = GovernorLayer<PeerIpKeyExtractor, NoOpMiddleware, Body>;

/// How often buckets of clients that went quiet are dropped, so memory stays bounded by
/// the number of recently active IPs.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

pub fn layer(limit: RateLimit) -> Layer {
    let config = Arc::new(
        GovernorConfigBuilder::default()
            .period(limit.period)
            .burst_size(limit.burst.max(1))
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
