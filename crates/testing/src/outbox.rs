//! `WebhookOutbox` of the in-memory store: the database's rules (each event on its own
//! schedule, claims under a lease, dead letters kept until redelivered) over a `Vec`.

use crate::InMemoryRepository;
use crate::repository::{OutboxRow, Tables};
use async_trait::async_trait;
use social_login_domain::{AuditEventId, AuditEventType};
use social_login_ports::{
    Claim, DeadLetter, Failure, OutboxCounts, PendingDelivery, RepoResult, Sweep, WebhookOutbox,
};
use time::OffsetDateTime;

fn take(limit: u64) -> usize {
    usize::try_from(limit).unwrap_or(usize::MAX)
}

impl Tables {
    /// Claims up to `limit` live rows due by `due_by`, soonest first, then oldest.
    fn claim(
        &mut self,
        claim: Claim,
        due_by: Option<OffsetDateTime>,
        limit: usize,
    ) -> Vec<PendingDelivery> {
        let now = claim.now;
        // As the database: a row whose event is gone is dropped, not sent.
        let events = &self.events;
        self.outbox
            .retain(|row| events.iter().any(|event| event.id == row.event.id));
        let mut free: Vec<&mut OutboxRow> = self
            .outbox
            .iter_mut()
            .filter(|row| row.dead_at.is_none())
            .filter(|row| due_by.is_none_or(|due_by| row.next_attempt <= due_by))
            .filter(|row| row.locked_until.is_none_or(|until| until <= now))
            .collect();
        free.sort_by_key(|row| (row.next_attempt, row.seq));
        free.into_iter()
            .take(limit)
            .map(|row| {
                row.locked_until = Some(claim.expires_at());
                PendingDelivery {
                    event: row.event.clone(),
                    attempts: row.attempts,
                    redelivered_at: row.redelivered,
                    claimed_until: claim.expires_at(),
                }
            })
            .collect()
    }

    fn row(&mut self, id: AuditEventId) -> Option<&mut OutboxRow> {
        self.outbox.iter_mut().find(|row| row.event.id == id)
    }

    /// The live row of a failed delivery, its lease released and the failure recorded;
    /// `None` when the row is gone or dead already.
    fn record_failure(&mut self, failure: Failure) -> Option<&mut OutboxRow> {
        let row = self
            .row(failure.event)
            .filter(|row| row.dead_at.is_none())
            .filter(|row| held_by(row, failure.claimed_until))?;
        row.locked_until = None;
        row.attempts = failure.attempts;
        row.last_error = Some(failure.error);
        Some(row)
    }

    /// Dead-letters `row` at `now`, keeping its last error or giving it `reason`.
    fn bury(row: &mut OutboxRow, now: OffsetDateTime, reason: &str) {
        row.dead_at = Some(now);
        row.last_error.get_or_insert_with(|| reason.to_owned());
    }

    /// The dead letters (`dead`) or the live rows, in table order.
    fn rows_by_state(&mut self, dead: bool) -> Vec<&mut OutboxRow> {
        self.outbox
            .iter_mut()
            .filter(|row| row.dead_at.is_some() == dead)
            .collect()
    }

    fn revive(row: &mut OutboxRow, now: OffsetDateTime) {
        row.dead_at = None;
        row.next_attempt = now;
        row.locked_until = None;
        row.attempts = 0;
        row.last_error = None;
        row.redelivered = Some(now);
    }
}

#[async_trait]
impl WebhookOutbox for InMemoryRepository {
    async fn claim_due(&self, lease: Claim, limit: u32) -> RepoResult<Vec<PendingDelivery>> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        Ok(self.lock().claim(lease, Some(lease.now), limit))
    }

    async fn claim_probe(&self, lease: Claim) -> RepoResult<Option<PendingDelivery>> {
        Ok(self.lock().claim(lease, None, 1).into_iter().next())
    }

    async fn take_probe_turn(&self, now: OffsetDateTime, next: OffsetDateTime) -> RepoResult<bool> {
        let mut tables = self.lock();
        if tables.next_probe.is_some_and(|turn| turn > now) {
            return Ok(false);
        }
        tables.next_probe = Some(next);
        Ok(true)
    }

    async fn remove(
        &self,
        id: AuditEventId,
        claimed_until: Option<OffsetDateTime>,
    ) -> RepoResult<()> {
        let gone = |row: &OutboxRow| row.event.id == id && held_by(row, claimed_until);
        self.lock().outbox.retain(|row| !gone(row));
        Ok(())
    }

    async fn retry_at(&self, failure: Failure, at: OffsetDateTime) -> RepoResult<()> {
        if let Some(row) = self.lock().record_failure(failure) {
            row.next_attempt = at;
        }
        Ok(())
    }

    async fn dead_letter(&self, failure: Failure, now: OffsetDateTime) -> RepoResult<()> {
        if let Some(row) = self.lock().record_failure(failure) {
            Tables::bury(row, now, "");
        }
        Ok(())
    }

    async fn dead_letter_written_before(
        &self,
        before: OffsetDateTime,
        sweep: Sweep,
    ) -> RepoResult<u64> {
        let mut tables = self.lock();
        let old = tables
            .outbox
            .iter_mut()
            .filter(|row| row.dead_at.is_none() && row.event.created_at < before)
            .filter(|row| row.redelivered.is_none_or(|at| at < before))
            .filter(|row| row.locked_until.is_none_or(|until| until <= sweep.now))
            .take(take(sweep.limit));
        Ok(old
            .map(|row| Tables::bury(row, sweep.now, sweep.reason))
            .count() as u64)
    }

    async fn dead_letter_beyond(&self, keep: u64, sweep: Sweep) -> RepoResult<u64> {
        let Sweep { now, reason, limit } = sweep;
        let mut tables = self.lock();
        let mut live = tables.rows_by_state(false);
        live.retain(|row| !AuditEventType::KEPT_WHEN_FULL.contains(&row.event.kind));
        live.sort_by_key(|row| std::cmp::Reverse(row.event.id.as_uuid()));
        let beyond = live.into_iter().skip(take(keep)).take(take(limit));
        Ok(beyond.map(|row| Tables::bury(row, now, reason)).count() as u64)
    }

    async fn forget_dead_beyond(&self, keep: u64, limit: u64) -> RepoResult<u64> {
        let mut tables = self.lock();
        let mut dead: Vec<(OffsetDateTime, AuditEventId)> = (tables.outbox.iter())
            .filter_map(|row| Some((row.dead_at?, row.event.id)))
            .collect();
        dead.sort_by_key(|(at, id)| std::cmp::Reverse((*at, id.as_uuid())));
        let forgotten: Vec<AuditEventId> = (dead.into_iter().skip(take(keep)).take(take(limit)))
            .map(|(_, id)| id)
            .collect();
        tables
            .outbox
            .retain(|row| !forgotten.contains(&row.event.id));
        Ok(forgotten.len() as u64)
    }

    async fn counts(&self) -> RepoResult<OutboxCounts> {
        let tables = self.lock();
        let dead = tables.outbox.iter().filter(|row| row.dead_at.is_some());
        let dead = dead.count() as u64;
        Ok(OutboxCounts {
            pending: tables.outbox.len() as u64 - dead,
            dead,
        })
    }

    async fn dead_letters(&self, limit: u64) -> RepoResult<Vec<DeadLetter>> {
        let tables = self.lock();
        let mut dead: Vec<&OutboxRow> = tables
            .outbox
            .iter()
            .filter(|row| row.dead_at.is_some())
            .filter(|row| tables.events.iter().any(|event| event.id == row.event.id))
            .collect();
        dead.sort_by_key(|row| (row.dead_at, row.event.id.as_uuid()));
        Ok(dead
            .into_iter()
            .take(take(limit))
            .map(|row| DeadLetter {
                event: row.event.clone(),
                attempts: row.attempts,
                dead_at: row.dead_at.unwrap_or(row.next_attempt),
                last_error: row.last_error.clone(),
            })
            .collect())
    }

    async fn redeliver(&self, id: AuditEventId, now: OffsetDateTime) -> RepoResult<bool> {
        let mut tables = self.lock();
        let Some(row) = tables.row(id).filter(|row| row.dead_at.is_some()) else {
            return Ok(false);
        };
        Tables::revive(row, now);
        Ok(true)
    }

    async fn redeliver_dead(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let mut tables = self.lock();
        let mut dead = tables.rows_by_state(true);
        dead.sort_by_key(|row| (row.dead_at, row.event.id.as_uuid()));
        let oldest = dead.into_iter().take(take(limit));
        Ok(oldest.map(|row| Tables::revive(row, now)).count() as u64)
    }

    async fn forget_written_before(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let mut tables = self.lock();
        let mut left = take(limit);
        let before_count = tables.outbox.len();
        tables.outbox.retain(|row| {
            let forget = left > 0 && row.event.created_at < before;
            left -= usize::from(forget);
            !forget
        });
        Ok((before_count - tables.outbox.len()) as u64)
    }
}

/// Whether `row` is held by the claim that ends at `claimed_until` (`None`: by any).
fn held_by(row: &OutboxRow, claimed_until: Option<OffsetDateTime>) -> bool {
    claimed_until.is_none_or(|until| row.locked_until == Some(until))
}
