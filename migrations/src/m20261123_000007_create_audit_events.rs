//! Creates `audit_events` (what happened to an account, docs/api.md#webhooks) and `webhook_outbox`
//! (the events still to deliver to the webhook receiver, oldest first).
//!
//! Events have no foreign key to `users`: `user.deleted` must outlive its user. Outbox times
//! are Unix milliseconds, because the claim compares them in SQL and SQLite stores
//! timestamps as text.

use crate::names::{IX_AUDIT_EVENTS_USER_ID, UX_WEBHOOK_OUTBOX_EVENT_ID};
use crate::steps::Steps;
use crate::tables::{AuditEvents, WebhookOutbox};
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

pub fn steps(_: DbBackend) -> Steps {
    use AuditEvents as Audit;
    use WebhookOutbox as Outbox;
    Steps::default()
        .create(
            Table::create()
                .table(Audit::Table)
                .col(uuid(Audit::Id).primary_key())
                .col(uuid(Audit::UserId))
                .col(string_len(Audit::Type, 64))
                .col(string_len_null(Audit::Provider, 32))
                .col(string_len_null(Audit::Ip, 64))
                .col(string_len_null(Audit::UserAgent, 1024))
                .col(string_len_null(Audit::RequestId, 256))
                .col(timestamp_with_time_zone(Audit::CreatedAt)),
        )
        .index(
            IX_AUDIT_EVENTS_USER_ID,
            Audit::Table,
            [Audit::UserId, Audit::Id],
        )
        .create(
            Table::create()
                .table(Outbox::Table)
                .col(big_pk_auto(Outbox::Seq))
                .col(uuid(Outbox::EventId))
                .col(integer(Outbox::Attempts))
                .col(big_integer(Outbox::NextAttemptMs))
                .col(big_integer(Outbox::LockedUntilMs)),
        )
        .unique_index(UX_WEBHOOK_OUTBOX_EVENT_ID, Outbox::Table, [Outbox::EventId])
}
