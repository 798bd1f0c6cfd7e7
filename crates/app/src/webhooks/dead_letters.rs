//! The operator's view of the dead letters (`social-login webhooks dead`): list them, and
//! put one or all back in the queue, due at once with their attempts reset.

use crate::{AppError, AppResult};
use social_login_domain::AuditEventId;
use social_login_ports::{Clock, DeadLetter, OutboxCounts, WebhookOutbox};
use std::sync::Arc;

/// Dead letters redelivered per statement by [`DeadLetters::redeliver_all`], and at most
/// this many statements (ten million letters) in one call.
const BATCH: u64 = 1_000;
const MAX_BATCHES: u32 = 10_000;

pub struct DeadLetters {
    outbox: Arc<dyn WebhookOutbox>,
    clock: Arc<dyn Clock>,
}

impl DeadLetters {
    pub fn new(outbox: Arc<dyn WebhookOutbox>, clock: Arc<dyn Clock>) -> Self {
        Self { outbox, clock }
    }

    /// Up to `limit` dead letters, in the order they died, and the outbox's counts.
    pub async fn list(&self, limit: u64) -> Result<(Vec<DeadLetter>, OutboxCounts), AppError> {
        let letters = self.outbox.dead_letters(limit).await?;
        Ok((letters, self.outbox.counts().await?))
    }

    /// Puts `id` back in the queue; false when it is no dead letter.
    pub async fn redeliver(&self, id: AuditEventId) -> AppResult<bool> {
        Ok(self.outbox.redeliver(id, self.clock.now()).await?)
    }

    /// Puts every dead letter back in the queue; returns how many.
    pub async fn redeliver_all(&self) -> AppResult<u64> {
        let mut total = 0;
        for _ in 0..MAX_BATCHES {
            let batch = self.outbox.redeliver_dead(self.clock.now(), BATCH).await?;
            total += batch;
            if batch < BATCH {
                break;
            }
        }
        Ok(total)
    }
}
