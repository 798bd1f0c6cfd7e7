//! The webhook delivery loop: one task per instance that keeps up to
//! `[webhooks] max_concurrent_deliveries` attempts in flight, claims more as slots free up
//! (looking every `poll_period()` of its pace), and tends the outbox every `maintain_period()`.
//! Requests only write the outbox row, in their own transaction, so a slow or absent
//! receiver never delays them.

use social_login_app::{AuthService, WebhookDelivery};
use std::sync::Weak;
use tokio::task::JoinSet;

/// Runs for as long as the service is alive (the task ends when the last router holding
/// the service is dropped; attempts still in flight are dropped with it, and their leases
/// run out, so another instance or the next start sends them again).
pub fn spawn(service: Weak<AuthService>, delivery: WebhookDelivery) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        let limits = delivery.limits();
        let max = limits.max_concurrent;
        let poll_every = limits.pace.poll_period();
        let mut in_flight = JoinSet::new();
        let mut maintenance = tokio::time::interval(limits.pace.maintain_period());
        while service.strong_count() > 0 {
            let free = max.saturating_sub(u32::try_from(in_flight.len()).unwrap_or(max));
            match delivery.claim(free).await {
                Ok(attempts) => {
                    for attempt in attempts {
                        let delivery = delivery.clone();
                        in_flight.spawn(async move { delivery.attempt(attempt).await });
                    }
                }
                Err(error) => tracing::warn!(%error, "webhook outbox unavailable"),
            }
            tokio::select! {
                Some(finished) = in_flight.join_next(), if !in_flight.is_empty() => {
                    if let Ok(Err(error)) = finished {
                        tracing::warn!(%error, "webhook outbox unavailable");
                    }
                }
                _ = maintenance.tick() => {
                    if let Err(error) = delivery.maintain().await {
                        tracing::warn!(%error, "webhook outbox upkeep failed");
                    }
                }
                () = tokio::time::sleep(poll_every) => {}
            }
        }
    });
}
