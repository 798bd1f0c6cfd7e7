//! `WebhookOutbox` of the in-memory store: the same claim rule as the database's (only
//! the oldest row, when due and not claimed).

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::AuditEventId;
use social_login_ports::{PendingDelivery, RepositoryError, WebhookOutbox};
use time::{Duration, OffsetDateTime};

#[async_trait]
impl WebhookOutbox for InMemoryRepository {
    async fn claim_next(
        &self,
        now: OffsetDateTime,
        lease: Duration,
    ) -> Result<Option<PendingDelivery>, RepositoryError> {
        let mut tables = self.lock();
        let Some(head) = tables.outbox.iter_mut().min_by_key(|row| row.seq) else {
            return Ok(None);
        };
        let claimed = head.locked_until.is_some_and(|until| until > now);
        if head.next_attempt > now || claimed {
            return Ok(None);
        }
        head.locked_until = Some(now + lease);
        head.attempts += 1;
        Ok(Some(PendingDelivery {
            event: head.event.clone(),
            attempts: head.attempts,
        }))
    }

    async fn remove(&self, id: AuditEventId) -> Result<(), RepositoryError> {
        self.lock().outbox.retain(|row| row.event.id != id);
        Ok(())
    }

    async fn retry_at(&self, id: AuditEventId, at: OffsetDateTime) -> Result<(), RepositoryError> {
        for row in self
            .lock()
            .outbox
            .iter_mut()
            .filter(|row| row.event.id == id)
        {
            row.next_attempt = at;
            row.locked_until = None;
        }
        Ok(())
    }
}
