//! The webhook delivery loop: one task per instance that drains the outbox in order.
//! Requests only write the outbox row, in their own transaction, so a slow or absent
//! receiver never delays them.

use social_login_app::{AuthService, DeliveryStep, WebhookDelivery};
use std::sync::Weak;
use std::time::Duration;

/// How often an idle instance looks for new events (every instance looks; the outbox's
/// claim lets one of them deliver each event).
pub const POLL_EVERY: Duration = Duration::from_millis(500);

/// Runs for as long as the service is alive (the task ends when the last router holding
/// the service is dropped).
pub fn spawn(service: Weak<AuthService>, delivery: WebhookDelivery) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        while service.strong_count() > 0 {
            match delivery.deliver_next().await {
                Ok(DeliveryStep::Delivered | DeliveryStep::GaveUp) => {}
                Ok(DeliveryStep::Idle | DeliveryStep::RetryLater) => {
                    tokio::time::sleep(POLL_EVERY).await;
                }
                Err(error) => {
                    tracing::warn!(%error, "webhook outbox unavailable");
                    tokio::time::sleep(POLL_EVERY).await;
                }
            }
        }
    });
}
