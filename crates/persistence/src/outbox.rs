//! The webhook outbox on sea-orm (PostgreSQL, and SQLite for tooling): the statements of
//! `outbox_sql`, with their values, on the pool.

use crate::SeaOrmRepository;
use crate::audit::{from_row, from_unix_ms, unix_ms};
use crate::entity::audit_event;
use crate::error::repository_error;
use crate::outbox_sql::{self as sql, id_bound};
use crate::raw_sql::{count, statement};
use async_trait::async_trait;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryResult, Value,
};
use social_login_domain::AuditEventId;
use social_login_ports::{
    Claim, DeadLetter, Failure, OutboxCounts, PendingDelivery, RepoResult, Sweep, WebhookOutbox,
};
use time::OffsetDateTime;

fn attempts(failure: &Failure) -> Value {
    i32::try_from(failure.attempts).unwrap_or(i32::MAX).into()
}

fn number(row: &QueryResult, column: &str) -> RepoResult<u64> {
    let value: i64 = row.try_get("", column).map_err(repository_error)?;
    Ok(u64::try_from(value).unwrap_or(0))
}

fn dead_letter(row: &QueryResult) -> RepoResult<DeadLetter> {
    let event = audit_event::Model::from_query_result(row, "").map_err(repository_error)?;
    let dead_at_ms: i64 = row.try_get("", "dead_at_ms").map_err(repository_error)?;
    let attempts: i32 = row.try_get("", "attempts").map_err(repository_error)?;
    Ok(DeadLetter {
        event: from_row(event)?,
        attempts: u32::try_from(attempts).unwrap_or(0),
        dead_at: crate::audit::from_unix_ms(dead_at_ms),
        last_error: row.try_get("", "last_error").map_err(repository_error)?,
    })
}

impl SeaOrmRepository {
    async fn run(&self, sql: &str, values: Vec<Value>) -> RepoResult<u64> {
        let db = self.connection();
        let done = db
            .execute_raw(statement(db.get_database_backend(), sql, values))
            .await
            .map_err(repository_error)?;
        Ok(done.rows_affected())
    }

    async fn rows(&self, sql: &str, values: Vec<Value>) -> RepoResult<Vec<QueryResult>> {
        crate::raw_sql::query_all(self.connection(), sql, values).await
    }

    /// Claims up to `limit` rows due by `due_by`, and reads their events.
    async fn claim(
        &self,
        claim: Claim,
        due_by: i64,
        limit: u32,
    ) -> RepoResult<Vec<PendingDelivery>> {
        let values = vec![
            unix_ms(claim.expires_at()).into(),
            due_by.into(),
            unix_ms(claim.now).into(),
            i64::from(limit).into(),
        ];
        let mut claimed = Vec::new();
        for row in self.rows(sql::CLAIM, values).await? {
            let next: i64 = row
                .try_get("", "next_attempt_ms")
                .map_err(repository_error)?;
            let seq: i64 = row.try_get("", "seq").map_err(repository_error)?;
            let event_id: uuid::Uuid = row.try_get("", "event_id").map_err(repository_error)?;
            let attempts: i32 = row.try_get("", "attempts").map_err(repository_error)?;
            let redelivered: Option<i64> = row
                .try_get("", "redelivered_ms")
                .map_err(repository_error)?;
            let queue = (u32::try_from(attempts).unwrap_or(0), redelivered);
            claimed.push(((next, seq), event_id, queue));
        }
        // RETURNING has no order: the soonest due first, then the oldest.
        claimed.sort_unstable_by_key(|(turn, _, _)| *turn);
        let ids: Vec<uuid::Uuid> = claimed.iter().map(|(_, id, _)| *id).collect();
        let events = audit_event::Entity::find()
            .filter(audit_event::Column::Id.is_in(ids))
            .all(self.connection())
            .await
            .map_err(repository_error)?;
        let mut pending = Vec::with_capacity(claimed.len());
        for (_, event_id, (attempts, redelivered)) in claimed {
            match events.iter().find(|event| event.id == event_id) {
                Some(event) => pending.push(PendingDelivery {
                    event: from_row(event.clone())?,
                    attempts,
                    redelivered_at: redelivered.map(from_unix_ms),
                    claimed_until: claim.expires_at(),
                }),
                // Its event is gone (deleted by hand): nothing left to send.
                None => self.remove(AuditEventId::from_uuid(event_id), None).await?,
            }
        }
        Ok(pending)
    }
}

/// The values of `RETRY` and `DEAD_LETTER`: the event, the instant, the failure.
fn failed(failure: Failure, at: OffsetDateTime) -> Vec<Value> {
    vec![
        failure.event.as_uuid().into(),
        unix_ms(at).into(),
        attempts(&failure),
        failure.error.into(),
        failure.claimed_until.map(unix_ms).into(),
    ]
}

/// The values of `DEAD_LETTER_BEFORE` and `DEAD_LETTER_BEYOND`: which rows, then the instant,
/// the reason and the limit.
fn sweep(which: Value, sweep: Sweep) -> Vec<Value> {
    vec![
        which,
        unix_ms(sweep.now).into(),
        sweep.reason.into(),
        count(sweep.limit),
    ]
}

#[async_trait]
impl WebhookOutbox for SeaOrmRepository {
    async fn claim_due(&self, lease: Claim, limit: u32) -> RepoResult<Vec<PendingDelivery>> {
        self.claim(lease, unix_ms(lease.now), limit).await
    }

    async fn claim_probe(&self, lease: Claim) -> RepoResult<Option<PendingDelivery>> {
        let claimed = self.claim(lease, sql::NEVER - 1, 1).await?;
        Ok(claimed.into_iter().next())
    }

    async fn take_probe_turn(&self, now: OffsetDateTime, next: OffsetDateTime) -> RepoResult<bool> {
        let values = vec![unix_ms(now).into(), unix_ms(next).into()];
        Ok(self.run(sql::TAKE_PROBE_TURN, values).await? == 1)
    }

    async fn remove(
        &self,
        id: AuditEventId,
        claimed_until: Option<OffsetDateTime>,
    ) -> RepoResult<()> {
        let values = vec![id.as_uuid().into(), claimed_until.map(unix_ms).into()];
        self.run(sql::DELETE, values).await.map(drop)
    }

    async fn retry_at(&self, failure: Failure, at: OffsetDateTime) -> RepoResult<()> {
        self.run(sql::RETRY, failed(failure, at)).await.map(drop)
    }

    async fn dead_letter(&self, failure: Failure, now: OffsetDateTime) -> RepoResult<()> {
        let values = failed(failure, now);
        self.run(sql::DEAD_LETTER, values).await.map(drop)
    }

    async fn dead_letter_written_before(
        &self,
        before: OffsetDateTime,
        sweep: Sweep,
    ) -> RepoResult<u64> {
        let mut values = self::sweep(id_bound(before).into(), sweep);
        values.push(unix_ms(before).into());
        self.run(sql::DEAD_LETTER_BEFORE, values).await
    }

    async fn dead_letter_beyond(&self, keep: u64, sweep: Sweep) -> RepoResult<u64> {
        let values = self::sweep(count(keep), sweep);
        self.run(sql::DEAD_LETTER_BEYOND, values).await
    }

    async fn forget_dead_beyond(&self, keep: u64, limit: u64) -> RepoResult<u64> {
        self.run(sql::FORGET_DEAD_BEYOND, vec![count(keep), count(limit)])
            .await
    }

    async fn counts(&self) -> RepoResult<OutboxCounts> {
        let mut counts = [0; 2];
        for (slot, sql) in counts.iter_mut().zip([sql::COUNT_PENDING, sql::COUNT_DEAD]) {
            if let Some(row) = self.rows(sql, Vec::new()).await?.first() {
                *slot = number(row, "n")?;
            }
        }
        Ok(OutboxCounts {
            pending: counts[0],
            dead: counts[1],
        })
    }

    async fn dead_letters(&self, limit: u64) -> RepoResult<Vec<DeadLetter>> {
        self.rows(sql::DEAD_LETTERS, vec![count(limit)])
            .await?
            .iter()
            .map(dead_letter)
            .collect()
    }

    async fn redeliver(&self, id: AuditEventId, now: OffsetDateTime) -> RepoResult<bool> {
        let values = vec![id.as_uuid().into(), unix_ms(now).into()];
        Ok(self.run(sql::REDELIVER, values).await? > 0)
    }

    async fn redeliver_dead(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let values = vec![unix_ms(now).into(), count(limit)];
        self.run(sql::REDELIVER_DEAD, values).await
    }

    async fn forget_written_before(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let values = vec![id_bound(before).into(), count(limit)];
        self.run(sql::FORGET_BEFORE, values).await
    }
}
