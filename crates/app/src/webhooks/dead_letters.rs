//! The operator's view of the dead letters (`social-login webhooks dead`): list them, and
//! put one or all back in the queue, due at once with their attempts reset.

use crate::AppResult;
use crate::batches::{LastBatch, in_batches};
use social_login_domain::AuditEventId;
use social_login_ports::{Clock, DeadLetter, OutboxCounts, WebhookOutbox};
use std::sync::Arc;

/// Statements of [`DeadLetters::redeliver_all`] at most (ten million letters) in one call.
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
    pub async fn list(&self, limit: u64) -> AppResult<(Vec<DeadLetter>, OutboxCounts)> {
        let letters = self.outbox.dead_letters(limit).await?;
        Ok((letters, self.outbox.counts().await?))
    }

    /// Puts `id` back in the queue; false when it is no dead letter.
    pub async fn redeliver(&self, id: AuditEventId) -> AppResult<bool> {
        Ok(self.outbox.redeliver(id, self.clock.now()).await?)
    }

    /// Puts every dead letter back in the queue; returns how many.
    pub async fn redeliver_all(&self) -> AppResult<u64> {
        let batch = |limit| self.outbox.redeliver_dead(self.clock.now(), limit);
        Ok(in_batches(batch, LastBatch::Short, MAX_BATCHES).await?)
    }
}
