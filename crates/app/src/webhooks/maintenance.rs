//! The outbox's upkeep, every few seconds on each instance: events older than
//! [`DEAD_AFTER`] (counted from a redelivery, if any) become dead letters, the pending
//! events are held to [`DeliveryLimits::max_pending`](super::DeliveryLimits) and the dead
//! letters to as many (the first to die are forgotten), and the gauges are refreshed (rows
//! of old events go with the housekeeping: `AuthService::prune_webhook_outbox`). Every step
//! is idempotent, so instances need no coordination.

use super::delivery::dead_lettered;
use super::{DEAD_AFTER, WebhookDelivery};
use crate::AppResult;
use crate::batches::BATCH;
use social_login_ports::{OutboxCounts, Sweep};
use tracing::warn;

impl WebhookDelivery {
    /// One round of upkeep; returns the counts after it.
    pub async fn maintain(&self) -> AppResult<OutboxCounts> {
        let now = self.clock.now();
        let expired = self
            .outbox
            .dead_letter_written_before(
                now - DEAD_AFTER,
                Sweep::new(now, "not delivered within 3 days", BATCH),
            )
            .await?;
        if expired > 0 {
            dead_lettered("age", expired);
            warn!(
                expired,
                "webhook events not delivered within 3 days were dead-lettered"
            );
        }
        let mut counts = self.outbox.counts().await?;
        let max_pending = self.limits.max_pending;
        if counts.pending > max_pending {
            // The bound is kept here, not in the login's transaction, which must never
            // wait on a count or fail because the receiver is away.
            let overflow = self
                .outbox
                .dead_letter_beyond(
                    max_pending,
                    Sweep::new(now, "outbox full", counts.pending - max_pending),
                )
                .await?;
            // Deletions and locks are never swept: an outbox full of them sweeps nothing,
            // which is no news to log every 5 s.
            if overflow > 0 {
                dead_lettered("outbox_full", overflow);
                warn!(
                    overflow,
                    max_pending, "webhook outbox full: its oldest events were dead-lettered"
                );
            }
            counts = self.outbox.counts().await?;
        }
        if counts.dead > max_pending {
            // A receiver that refuses everything for weeks would otherwise fill the table
            // with dead letters for 400 days.
            let beyond = (counts.dead - max_pending).min(BATCH);
            let forgotten = self.outbox.forget_dead_beyond(max_pending, beyond).await?;
            if forgotten > 0 {
                warn!(
                    forgotten,
                    max_pending, "too many webhook dead letters: the first to die were forgotten"
                );
            }
            counts.dead = counts.dead.saturating_sub(forgotten);
        }
        #[allow(clippy::cast_precision_loss, reason = "a gauge is a float")]
        {
            metrics::gauge!("social_login_webhook_outbox_pending").set(counts.pending as f64);
            metrics::gauge!("social_login_webhook_outbox_dead").set(counts.dead as f64);
        }
        Ok(counts)
    }
}
