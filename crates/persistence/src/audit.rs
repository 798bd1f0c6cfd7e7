//! Audit events on sea-orm.
//!
//! [`record`] runs inside the transaction of the change an event records; it also queues
//! the event for the webhooks when the outbox wants its type (the outbox itself: `outbox`).

use crate::entity::{audit_event, webhook_outbox};
use crate::error::repository_error;
use crate::traced::TracedTransaction;
use sea_orm::{ConnectionTrait, EntityTrait};
use social_login_domain::{
    AdminKeyId, AuditEvent, AuditEventId, AuditEventType, EventSet, Origin, ProviderKey,
    UserEvents, UserId, Via,
};
use social_login_ports::{RepoResult, RepositoryError};
use time::OffsetDateTime;

/// Writes `event`, and its outbox row if `outbox` holds its type, on `db` (a transaction).
pub(crate) async fn record<C: ConnectionTrait>(
    db: &C,
    event: &AuditEvent,
    outbox: EventSet,
) -> RepoResult<()> {
    audit_event::Entity::insert(to_row(event))
        .exec_without_returning(db)
        .await
        .map_err(repository_error)?;
    if outbox.contains(event.kind) {
        webhook_outbox::Entity::insert(outbox_row(event))
            .exec_without_returning(db)
            .await
            .map_err(repository_error)?;
    }
    Ok(())
}

/// Records each of `events` (see [`record`]).
pub(crate) async fn record_all<C: ConnectionTrait>(
    db: &C,
    events: impl IntoIterator<Item = AuditEvent>,
    outbox: EventSet,
) -> RepoResult<()> {
    for event in events {
        record(db, &event, outbox).await?;
    }
    Ok(())
}

/// Records `events` as the last writes of `txn` (see [`record`]), and commits it: how every
/// change of the repository ends.
pub(crate) async fn commit_with(
    txn: TracedTransaction,
    events: impl IntoIterator<Item = AuditEvent>,
    outbox: EventSet,
) -> RepoResult<()> {
    record_all(&*txn, events, outbox).await?;
    txn.commit().await.map_err(repository_error)
}

pub(crate) async fn list<C: ConnectionTrait>(
    db: &C,
    query: UserEvents,
) -> RepoResult<Vec<AuditEvent>> {
    crate::queries::events_of(query)
        .all(db)
        .await
        .map_err(repository_error)?
        .into_iter()
        .map(from_row)
        .collect()
}

/// The outbox row that queues `event` for the webhooks, due at once.
pub(crate) fn outbox_row(event: &AuditEvent) -> webhook_outbox::ActiveModel {
    use sea_orm::ActiveValue::{NotSet, Set};
    webhook_outbox::ActiveModel {
        seq: NotSet,
        event_id: Set(event.id.as_uuid()),
        attempts: Set(0),
        next_attempt_ms: Set(unix_ms(event.created_at)),
        locked_until_ms: Set(0),
        dead_at_ms: Set(None),
        last_error: Set(None),
        // Left to its default (NULL): never redelivered.
        redelivered_ms: NotSet,
    }
}

pub(crate) fn to_row(event: &AuditEvent) -> audit_event::ActiveModel {
    use sea_orm::ActiveValue::Set;
    audit_event::ActiveModel {
        id: Set(event.id.as_uuid()),
        user_id: Set(event.user_id.as_uuid()),
        r#type: Set(event.kind.as_str().to_owned()),
        provider: Set(event.provider.map(|p| p.as_str().to_owned())),
        ip: Set(event.origin.ip.map(|ip| ip.to_string())),
        user_agent: Set(event.origin.user_agent().map(str::to_owned)),
        request_id: Set(event.origin.request_id().map(str::to_owned)),
        created_at: Set(event.created_at),
        admin_key_id: Set(event.origin.admin().map(|key| key.to_string())),
        via: Set(event.origin.how().map(|via| via.as_str().to_owned())),
    }
}

pub(crate) fn from_row(row: audit_event::Model) -> RepoResult<AuditEvent> {
    let corrupt = |what: &str| RepositoryError::Internal(format!("stored audit {what} is invalid"));
    let origin = Origin::new(
        row.ip
            .map(|ip| ip.parse())
            .transpose()
            .map_err(|_| corrupt("ip"))?,
        row.user_agent.as_deref(),
        row.request_id.as_deref(),
    );
    let origin = match row.admin_key_id.as_deref() {
        Some(key) => {
            origin.by_admin(AdminKeyId::parse(key).ok_or_else(|| corrupt("admin key id"))?)
        }
        None => origin,
    };
    let origin = match row.via.as_deref() {
        Some(via) => origin.via(via.parse::<Via>().map_err(|_| corrupt("via"))?),
        None => origin,
    };
    Ok(AuditEvent {
        id: AuditEventId::from_uuid(row.id),
        kind: row
            .r#type
            .parse::<AuditEventType>()
            .map_err(|_| corrupt("type"))?,
        user_id: UserId::from_uuid(row.user_id),
        provider: row
            .provider
            .map(|p| p.parse::<ProviderKey>())
            .transpose()
            .map_err(|_| corrupt("provider"))?,
        origin,
        created_at: row.created_at,
    })
}

pub(crate) fn unix_ms(at: OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// The time `ms` Unix milliseconds name (the epoch for a value out of range).
pub(crate) fn from_unix_ms(ms: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}
