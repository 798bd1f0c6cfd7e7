//! Creates `audit_events` (what happened to an account, docs/api.md#webhooks) and `webhook_outbox`
//! (the events still to deliver to the webhook receiver, oldest first).
//!
//! Events have no foreign key to `users`: `user.deleted` must outlive its user. Outbox times
//! are Unix milliseconds, because the claim compares them in SQL and SQLite stores
//! timestamps as text.

use crate::names::{IX_AUDIT_EVENTS_USER_ID, UX_WEBHOOK_OUTBOX_EVENT_ID};
use crate::steps::SchemaSteps;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AuditEvents {
    Table,
    Id,
    UserId,
    Type,
    Provider,
    Ip,
    UserAgent,
    RequestId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum WebhookOutbox {
    Table,
    Seq,
    EventId,
    Attempts,
    NextAttemptMs,
    LockedUntilMs,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create(
                Table::create()
                    .table(AuditEvents::Table)
                    .col(uuid(AuditEvents::Id).primary_key())
                    .col(uuid(AuditEvents::UserId))
                    .col(string_len(AuditEvents::Type, 64))
                    .col(string_len_null(AuditEvents::Provider, 32))
                    .col(string_len_null(AuditEvents::Ip, 64))
                    .col(string_len_null(AuditEvents::UserAgent, 1024))
                    .col(string_len_null(AuditEvents::RequestId, 256))
                    .col(timestamp_with_time_zone(AuditEvents::CreatedAt)),
            )
            .await?;
        manager
            .index(
                IX_AUDIT_EVENTS_USER_ID,
                AuditEvents::Table,
                [AuditEvents::UserId, AuditEvents::Id],
            )
            .await?;
        manager
            .create(
                Table::create()
                    .table(WebhookOutbox::Table)
                    .col(big_pk_auto(WebhookOutbox::Seq))
                    .col(uuid(WebhookOutbox::EventId))
                    .col(integer(WebhookOutbox::Attempts))
                    .col(big_integer(WebhookOutbox::NextAttemptMs))
                    .col(big_integer(WebhookOutbox::LockedUntilMs)),
            )
            .await?;
        manager
            .unique_index(
                UX_WEBHOOK_OUTBOX_EVENT_ID,
                WebhookOutbox::Table,
                [WebhookOutbox::EventId],
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table_of(WebhookOutbox::Table).await?;
        manager.drop_table_of(AuditEvents::Table).await
    }
}
