//! Audit events on SQLite (see `crate::audit` for the rules; the outbox: `outbox`).

use super::columns::{count, event_at, execute, query_all, time_text};
use super::statements::Db;
use super::{sql, write};
use crate::audit::{from_row, unix_ms};
use crate::outbox_sql;
use rusqlite::params;
use social_login_domain::{AuditEvent, AuditEventId, AuditEventType, EventSet, UserEvents, Via};
use social_login_ports::RepoResult;
use time::OffsetDateTime;

/// Writes `event`, and its outbox row if `outbox` holds its type, inside the caller's
/// transaction.
pub(super) fn record(db: &Db, event: &AuditEvent, outbox: EventSet) -> RepoResult<()> {
    let id = event.id.as_uuid();
    execute(
        db,
        sql::INSERT_EVENT,
        params![
            id.into_bytes(),
            event.user_id.as_uuid().into_bytes(),
            event.kind.as_str(),
            event.provider.as_ref().map(|provider| provider.as_str()),
            event.origin.ip.map(|ip| ip.to_string()),
            event.origin.user_agent(),
            event.origin.request_id(),
            time_text(event.created_at)?,
            event.origin.admin().map(|key| key.to_string()),
            event.origin.how().map(Via::as_str),
        ],
    )?;
    if outbox.contains(event.kind) {
        execute(
            db,
            outbox_sql::INSERT,
            params![id.into_bytes(), unix_ms(event.created_at)],
        )?;
    }
    Ok(())
}

pub(super) fn list(db: &Db, query: UserEvents) -> RepoResult<Vec<AuditEvent>> {
    let limit = count(query.limit);
    let hidden = query.view.hidden().map(AuditEventType::as_str);
    query_all(
        db,
        sql::EVENTS_OF,
        params![query.user.as_uuid().into_bytes(), limit, hidden],
        event_at,
    )?
    .into_iter()
    .map(from_row)
    .collect()
}

pub(super) fn prune(db: &Db, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
    let bound = AuditEventId::at(before, [0; 8]).as_uuid();
    let limit = count(limit);
    let deleted = write(db, |tx| {
        execute(
            tx,
            sql::DELETE_EVENTS_BEFORE,
            params![bound.into_bytes(), limit],
        )
    })?;
    Ok(deleted as u64)
}
