//! Audit events and the webhook outbox on sea-orm.
//!
//! [`record`] runs inside the transaction of the change an event records; it also queues
//! the event for the webhooks when the outbox wants its type. The outbox is claimed one row
//! at a time, the oldest, with a lease in the row, so any number of instances deliver in
//! order and a crashed one's claim runs out by itself.

use crate::SeaOrmRepository;
use crate::entity::{audit_event, webhook_outbox};
use crate::error::repository_error;
use async_trait::async_trait;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter, Statement, Value,
};
use social_login_domain::{
    AuditEvent, AuditEventId, AuditEventType, EventSet, Origin, ProviderKey, UserId,
};
use social_login_ports::{PendingDelivery, RepositoryError, WebhookOutbox};
use time::{Duration, OffsetDateTime};

/// Writes `event`, and its outbox row if `outbox` holds its type, on `db` (a transaction).
pub(crate) async fn record<C: ConnectionTrait>(
    db: &C,
    event: &AuditEvent,
    outbox: EventSet,
) -> Result<(), RepositoryError> {
    audit_event::Entity::insert(to_row(event))
        .exec_without_returning(db)
        .await
        .map_err(repository_error)?;
    if outbox.contains(event.kind) {
        webhook_outbox::Entity::insert(webhook_outbox::ActiveModel {
            seq: sea_orm::ActiveValue::NotSet,
            event_id: sea_orm::ActiveValue::Set(event.id.as_uuid()),
            attempts: sea_orm::ActiveValue::Set(0),
            next_attempt_ms: sea_orm::ActiveValue::Set(unix_ms(event.created_at)),
            locked_until_ms: sea_orm::ActiveValue::Set(0),
        })
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
) -> Result<(), RepositoryError> {
    for event in events {
        record(db, &event, outbox).await?;
    }
    Ok(())
}

pub(crate) async fn list<C: ConnectionTrait>(
    db: &C,
    user: UserId,
    limit: u64,
) -> Result<Vec<AuditEvent>, RepositoryError> {
    crate::queries::events_of(user, limit)
        .all(db)
        .await
        .map_err(repository_error)?
        .into_iter()
        .map(from_row)
        .collect()
}

fn to_row(event: &AuditEvent) -> audit_event::ActiveModel {
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
    }
}

pub(crate) fn from_row(row: audit_event::Model) -> Result<AuditEvent, RepositoryError> {
    let corrupt = |what: &str| RepositoryError::Internal(format!("stored audit {what} is invalid"));
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
        origin: Origin::new(
            row.ip
                .map(|ip| ip.parse())
                .transpose()
                .map_err(|_| corrupt("ip"))?,
            row.user_agent.as_deref(),
            row.request_id.as_deref(),
        ),
        created_at: row.created_at,
    })
}

pub(crate) fn unix_ms(at: OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// Claims the head of the outbox if it is due and unclaimed. Under concurrency on
/// PostgreSQL the second claimant waits for the first's row lock, re-checks the lease and
/// matches nothing; on SQLite the single connection runs one statement at a time.
fn claim_statement(backend: DbBackend, now: OffsetDateTime, lease: Duration) -> Statement {
    let (until, now_ph) = match backend {
        DbBackend::Postgres => ("$1", "$2"),
        _ => ("?1", "?2"),
    };
    let sql = format!(
        "UPDATE webhook_outbox SET locked_until_ms = {until}, attempts = attempts + 1 \
         WHERE seq = (SELECT MIN(seq) FROM webhook_outbox) \
         AND next_attempt_ms <= {now_ph} AND locked_until_ms <= {now_ph} \
         RETURNING event_id, attempts"
    );
    let values: Vec<Value> = vec![unix_ms(now + lease).into(), unix_ms(now).into()];
    Statement::from_sql_and_values(backend, sql, values)
}

#[async_trait]
impl WebhookOutbox for SeaOrmRepository {
    async fn claim_next(
        &self,
        now: OffsetDateTime,
        lease: Duration,
    ) -> Result<Option<PendingDelivery>, RepositoryError> {
        let db = self.connection();
        let Some(row) = db
            .query_one_raw(claim_statement(db.get_database_backend(), now, lease))
            .await
            .map_err(repository_error)?
        else {
            return Ok(None);
        };
        let event_id: uuid::Uuid = row.try_get("", "event_id").map_err(repository_error)?;
        let attempts: i32 = row.try_get("", "attempts").map_err(repository_error)?;
        let Some(event) = audit_event::Entity::find_by_id(event_id)
            .one(db)
            .await
            .map_err(repository_error)?
        else {
            // Its event is gone (it cannot be, without a manual delete): drop the row.
            self.remove(AuditEventId::from_uuid(event_id)).await?;
            return Ok(None);
        };
        Ok(Some(PendingDelivery {
            event: from_row(event)?,
            attempts: u32::try_from(attempts).unwrap_or(0),
        }))
    }

    async fn remove(&self, id: AuditEventId) -> Result<(), RepositoryError> {
        webhook_outbox::Entity::delete_many()
            .filter(webhook_outbox::Column::EventId.eq(id.as_uuid()))
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }

    async fn retry_at(&self, id: AuditEventId, at: OffsetDateTime) -> Result<(), RepositoryError> {
        use sea_orm::sea_query::Expr;
        webhook_outbox::Entity::update_many()
            .col_expr(
                webhook_outbox::Column::NextAttemptMs,
                Expr::value(unix_ms(at)),
            )
            .col_expr(webhook_outbox::Column::LockedUntilMs, Expr::value(0_i64))
            .filter(webhook_outbox::Column::EventId.eq(id.as_uuid()))
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }
}
