//! Audit events and the webhook outbox on SQLite (see `crate::audit` for the rules).

use super::columns::{event_at, execute, query_all, query_one, time_text, uuid_at};
use super::{SqliteRepository, sql, write};
use crate::audit::{from_row, unix_ms};
use async_trait::async_trait;
use rusqlite::{Connection, params};
use social_login_domain::{AuditEvent, AuditEventId, EventSet, UserId};
use social_login_ports::{PendingDelivery, RepositoryError, WebhookOutbox};
use time::{Duration, OffsetDateTime};

/// Writes `event`, and its outbox row if `outbox` holds its type, inside the caller's
/// transaction.
pub(super) fn record(
    db: &Connection,
    event: &AuditEvent,
    outbox: EventSet,
) -> Result<(), RepositoryError> {
    let id = event.id.as_uuid();
    execute(
        db,
        sql::INSERT_EVENT,
        params![
            id.into_bytes(),
            event.user_id.as_uuid().into_bytes(),
            event.kind.as_str(),
            event.provider.map(|provider| provider.as_str()),
            event.origin.ip.map(|ip| ip.to_string()),
            event.origin.user_agent(),
            event.origin.request_id(),
            time_text(event.created_at)?,
        ],
    )?;
    if outbox.contains(event.kind) {
        execute(
            db,
            sql::INSERT_OUTBOX,
            params![id.into_bytes(), unix_ms(event.created_at)],
        )?;
    }
    Ok(())
}

pub(super) fn list(
    db: &Connection,
    user: UserId,
    limit: u64,
) -> Result<Vec<AuditEvent>, RepositoryError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    query_all(
        db,
        sql::EVENTS_OF,
        params![user.as_uuid().into_bytes(), limit],
        event_at,
    )?
    .into_iter()
    .map(from_row)
    .collect()
}

pub(super) fn prune(
    db: &mut Connection,
    before: OffsetDateTime,
    limit: u64,
) -> Result<u64, RepositoryError> {
    let bound = AuditEventId::at(before, [0; 8]).as_uuid();
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let deleted = write(db, |tx| {
        execute(
            tx,
            sql::DELETE_EVENTS_BEFORE,
            params![bound.into_bytes(), limit],
        )
    })?;
    Ok(deleted as u64)
}

#[async_trait]
impl WebhookOutbox for SqliteRepository {
    async fn claim_next(
        &self,
        now: OffsetDateTime,
        lease: Duration,
    ) -> Result<Option<PendingDelivery>, RepositoryError> {
        self.call(move |db| {
            write(db, |tx| {
                let claimed = query_one(
                    tx,
                    sql::CLAIM_OUTBOX_HEAD,
                    params![unix_ms(now + lease), unix_ms(now)],
                    |row| Ok((uuid_at(row, 0)?, row.get::<_, i64>(1)?)),
                )?;
                let Some((event_id, attempts)) = claimed else {
                    return Ok(None);
                };
                let id = event_id.into_bytes();
                let Some(event) = query_one(tx, sql::EVENT_BY_ID, [id], event_at)? else {
                    // Its event is gone (it cannot be, without a manual delete): drop the row.
                    execute(tx, sql::DELETE_OUTBOX, [id])?;
                    return Ok(None);
                };
                Ok(Some(PendingDelivery {
                    event: from_row(event)?,
                    attempts: u32::try_from(attempts).unwrap_or(0),
                }))
            })
        })
        .await
    }

    async fn remove(&self, id: AuditEventId) -> Result<(), RepositoryError> {
        self.call(move |db| execute(db, sql::DELETE_OUTBOX, [id.as_uuid().into_bytes()]).map(drop))
            .await
    }

    async fn retry_at(&self, id: AuditEventId, at: OffsetDateTime) -> Result<(), RepositoryError> {
        self.call(move |db| {
            execute(
                db,
                sql::RETRY_OUTBOX,
                params![id.as_uuid().into_bytes(), unix_ms(at)],
            )
            .map(drop)
        })
        .await
    }
}
