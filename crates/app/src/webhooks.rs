//! Delivering audit events to the webhook receiver, from the outbox.
//!
//! One event at a time, the oldest first, so a receiver sees each user's events in order;
//! at least once (an event leaves the outbox only after a 2xx, or when given up on). A
//! failed delivery is retried with exponential backoff; a claim that dies with its instance
//! runs out after [`LEASE`] and another instance takes the event over.

use crate::AppError;
use social_login_ports::{Clock, WebhookOutbox, WebhookSender};
use std::sync::Arc;
use time::Duration;
use tracing::{info, warn};

/// How long a claim holds an event: longer than one delivery attempt may take.
pub const LEASE: Duration = Duration::seconds(60);
/// First retry after this; each next one waits twice as long, up to [`MAX_RETRY_DELAY`].
pub const FIRST_RETRY_DELAY: Duration = Duration::seconds(2);
pub const MAX_RETRY_DELAY: Duration = Duration::hours(1);
/// An event not delivered this long after it happened is given up on (and logged).
pub const GIVE_UP_AFTER: Duration = Duration::days(3);

/// What one delivery step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStep {
    /// Nothing due (or another instance holds the head).
    Idle,
    Delivered,
    /// Failed; due again later.
    RetryLater,
    /// Failed for longer than [`GIVE_UP_AFTER`]: dropped.
    GaveUp,
}

/// The delay before the retry that follows attempt number `attempts` (1 for the first).
pub fn retry_delay(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(20);
    let delay = FIRST_RETRY_DELAY * 2_i32.pow(doublings);
    delay.min(MAX_RETRY_DELAY)
}

/// The outbox, the sender and the clock.
#[derive(Clone)]
pub struct WebhookDelivery {
    outbox: Arc<dyn WebhookOutbox>,
    sender: Arc<dyn WebhookSender>,
    clock: Arc<dyn Clock>,
}

impl WebhookDelivery {
    pub fn new(
        outbox: Arc<dyn WebhookOutbox>,
        sender: Arc<dyn WebhookSender>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            outbox,
            sender,
            clock,
        }
    }

    /// Claims the oldest due event and tries to deliver it once.
    pub async fn deliver_next(&self) -> Result<DeliveryStep, AppError> {
        let now = self.clock.now();
        let Some(pending) = self.outbox.claim_next(now, LEASE).await? else {
            return Ok(DeliveryStep::Idle);
        };
        let event = &pending.event;
        match self.sender.send(event, now).await {
            Ok(()) => {
                self.outbox.remove(event.id).await?;
                info!(event = %event.id, kind = %event.kind, "webhook delivered");
                Ok(DeliveryStep::Delivered)
            }
            Err(error) if now - event.created_at >= GIVE_UP_AFTER => {
                self.outbox.remove(event.id).await?;
                warn!(event = %event.id, kind = %event.kind, %error, attempts = pending.attempts,
                    "webhook given up on");
                Ok(DeliveryStep::GaveUp)
            }
            Err(error) => {
                let at = now + retry_delay(pending.attempts);
                self.outbox.retry_at(event.id, at).await?;
                warn!(event = %event.id, kind = %event.kind, %error, attempts = pending.attempts,
                    "webhook delivery failed; will retry");
                Ok(DeliveryStep::RetryLater)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_from_two_seconds_to_an_hour() {
        assert_eq!(retry_delay(1), Duration::seconds(2));
        assert_eq!(retry_delay(2), Duration::seconds(4));
        assert_eq!(retry_delay(5), Duration::seconds(32));
        assert_eq!(retry_delay(12), MAX_RETRY_DELAY);
        assert_eq!(retry_delay(u32::MAX), MAX_RETRY_DELAY);
    }
}
