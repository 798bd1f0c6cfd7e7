//! The webhook outbox on SQLite: the statements of `outbox_sql` on the one connection (a
//! single writer, so a claim needs no row locks).

use super::columns::{count, event_at, execute, query_all, query_one, uuid_at};
use super::statements::Db;
use super::{SqliteRepository, sql, write};
use crate::audit::{from_row, from_unix_ms, unix_ms};
use crate::outbox_sql::{self as outbox, id_bound};
use async_trait::async_trait;
use rusqlite::params;
use rusqlite::types::Value;
use social_login_domain::AuditEventId;
use social_login_ports::{
    Claim, DeadLetter, Failure, OutboxCounts, PendingDelivery, RepoResult, Sweep, WebhookOutbox,
};
use time::OffsetDateTime;

/// Claims up to `limit` rows due by `due_by` and reads their events, in one transaction.
fn claim(db: &Db, claim: Claim, due_by: i64, limit: u32) -> RepoResult<Vec<PendingDelivery>> {
    let (until, now) = (unix_ms(claim.expires_at()), unix_ms(claim.now));
    write(db, |tx| {
        let mut claimed = query_all(
            tx,
            outbox::CLAIM,
            params![until, due_by, now, limit],
            |row| {
                let turn = (row.get::<_, i64>(0)?, row.get::<_, i64>(1)?);
                let queue = (row.get::<_, i64>(3)?, row.get::<_, Option<i64>>(4)?);
                Ok((turn, uuid_at(row, 2)?, queue))
            },
        )?;
        // RETURNING has no order: the soonest due first, then the oldest.
        claimed.sort_unstable_by_key(|(turn, _, _)| *turn);
        let mut pending = Vec::with_capacity(claimed.len());
        for (_, event_id, (attempts, redelivered)) in claimed {
            let id = event_id.into_bytes();
            match query_one(tx, sql::EVENT_BY_ID, [id], event_at)? {
                Some(event) => pending.push(PendingDelivery {
                    event: from_row(event)?,
                    attempts: u32::try_from(attempts).unwrap_or(0),
                    redelivered_at: redelivered.map(from_unix_ms),
                    claimed_until: claim.expires_at(),
                }),
                // Its event is gone (deleted by hand): nothing left to send.
                None => drop(execute(
                    tx,
                    outbox::DELETE,
                    params![id, Option::<i64>::None],
                )?),
            }
        }
        Ok(pending)
    })
}

type DeadRow = (crate::entity::audit_event::Model, i64, i64, Option<String>);

/// The columns of `DEAD_LETTERS`: the event's, then attempts, dead_at_ms, last_error.
fn dead_letter_at(row: &rusqlite::Row) -> rusqlite::Result<DeadRow> {
    Ok((event_at(row)?, row.get(10)?, row.get(11)?, row.get(12)?))
}

impl SqliteRepository {
    /// `RETRY` or `DEAD_LETTER`: the event, the instant, the failure.
    async fn record_failure(
        &self,
        statement: &'static str,
        failure: Failure,
        at: OffsetDateTime,
    ) -> RepoResult<()> {
        self.call(move |db| {
            let values = params![
                failure.event.as_uuid().into_bytes(),
                unix_ms(at),
                failure.attempts,
                failure.error,
                failure.claimed_until.map(unix_ms)
            ];
            execute(db, statement, values).map(drop)
        })
        .await
    }

    /// `DEAD_LETTER_BEFORE` or `DEAD_LETTER_BEYOND` with `values`; how many it dead-lettered.
    async fn sweep(&self, statement: &'static str, values: Vec<Value>) -> RepoResult<u64> {
        self.call(move |db| {
            execute(db, statement, rusqlite::params_from_iter(values)).map(|n| n as u64)
        })
        .await
    }
}

/// The values of `DEAD_LETTER_BEFORE` and `DEAD_LETTER_BEYOND`: which rows, then the
/// instant, the reason and the limit.
fn sweep_values(which: Value, sweep: Sweep) -> Vec<Value> {
    vec![
        which,
        Value::Integer(unix_ms(sweep.now)),
        Value::Text(sweep.reason.to_owned()),
        Value::Integer(count(sweep.limit)),
    ]
}

#[async_trait]
impl WebhookOutbox for SqliteRepository {
    async fn claim_due(&self, lease: Claim, limit: u32) -> RepoResult<Vec<PendingDelivery>> {
        self.call(move |db| claim(db, lease, unix_ms(lease.now), limit))
            .await
    }

    async fn claim_probe(&self, lease: Claim) -> RepoResult<Option<PendingDelivery>> {
        let claimed = self
            .call(move |db| claim(db, lease, outbox::NEVER - 1, 1))
            .await?;
        Ok(claimed.into_iter().next())
    }

    async fn take_probe_turn(&self, now: OffsetDateTime, next: OffsetDateTime) -> RepoResult<bool> {
        let (now, next) = (unix_ms(now), unix_ms(next));
        let taken = self
            .call(move |db| execute(db, outbox::TAKE_PROBE_TURN, params![now, next]))
            .await?;
        Ok(taken == 1)
    }

    async fn remove(
        &self,
        id: AuditEventId,
        claimed_until: Option<OffsetDateTime>,
    ) -> RepoResult<()> {
        let (id, claimed_until) = (id.as_uuid().into_bytes(), claimed_until.map(unix_ms));
        self.call(move |db| execute(db, outbox::DELETE, params![id, claimed_until]).map(drop))
            .await
    }

    async fn retry_at(&self, failure: Failure, at: OffsetDateTime) -> RepoResult<()> {
        self.record_failure(outbox::RETRY, failure, at).await
    }

    async fn dead_letter(&self, failure: Failure, now: OffsetDateTime) -> RepoResult<()> {
        self.record_failure(outbox::DEAD_LETTER, failure, now).await
    }

    async fn dead_letter_written_before(
        &self,
        before: OffsetDateTime,
        sweep: Sweep,
    ) -> RepoResult<u64> {
        let which = Value::Blob(id_bound(before).into_bytes().to_vec());
        let mut values = sweep_values(which, sweep);
        values.push(Value::Integer(unix_ms(before)));
        self.sweep(outbox::DEAD_LETTER_BEFORE, values).await
    }

    async fn dead_letter_beyond(&self, keep: u64, sweep: Sweep) -> RepoResult<u64> {
        let values = sweep_values(Value::Integer(count(keep)), sweep);
        self.sweep(outbox::DEAD_LETTER_BEYOND, values).await
    }

    async fn forget_dead_beyond(&self, keep: u64, limit: u64) -> RepoResult<u64> {
        self.call(move |db| {
            let values = params![count(keep), count(limit)];
            execute(db, outbox::FORGET_DEAD_BEYOND, values).map(|n| n as u64)
        })
        .await
    }

    async fn counts(&self) -> RepoResult<OutboxCounts> {
        self.call(|db| {
            let number = |sql| {
                query_one(db, sql, [], |row| row.get::<_, i64>(0))
                    .map(|n| u64::try_from(n.unwrap_or(0)).unwrap_or(0))
            };
            Ok(OutboxCounts {
                pending: number(outbox::COUNT_PENDING)?,
                dead: number(outbox::COUNT_DEAD)?,
            })
        })
        .await
    }

    async fn dead_letters(&self, limit: u64) -> RepoResult<Vec<DeadLetter>> {
        self.call(move |db| {
            query_all(db, outbox::DEAD_LETTERS, [count(limit)], dead_letter_at)?
                .into_iter()
                .map(|(event, attempts, dead_at_ms, last_error)| {
                    Ok(DeadLetter {
                        event: from_row(event)?,
                        attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                        dead_at: from_unix_ms(dead_at_ms),
                        last_error,
                    })
                })
                .collect()
        })
        .await
    }

    async fn redeliver(&self, id: AuditEventId, now: OffsetDateTime) -> RepoResult<bool> {
        self.call(move |db| {
            let values = params![id.as_uuid().into_bytes(), unix_ms(now)];
            execute(db, outbox::REDELIVER, values).map(|n| n > 0)
        })
        .await
    }

    async fn redeliver_dead(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        self.call(move |db| {
            execute(
                db,
                outbox::REDELIVER_DEAD,
                params![unix_ms(now), count(limit)],
            )
            .map(|n| n as u64)
        })
        .await
    }

    async fn forget_written_before(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        self.call(move |db| {
            let values = params![id_bound(before).into_bytes(), count(limit)];
            execute(db, outbox::FORGET_BEFORE, values).map(|n| n as u64)
        })
        .await
    }
}
