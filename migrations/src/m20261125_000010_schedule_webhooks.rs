//! Gives each queued webhook event its own schedule and a dead-letter state, so one event the
//! receiver refuses no longer holds back the others.
//!
//! `dead_at_ms` (Unix milliseconds) marks a dead letter, `last_error` keeps why the last
//! attempt failed. `ix_webhook_outbox_due (next_attempt_ms, seq)` serves the claim (soonest
//! due first); `ix_webhook_outbox_dead (dead_at_ms, event_id)` the counts, the age and size
//! bounds (pending rows by time-ordered event id) and the dead-letter list. Rows queued
//! before this migration start afresh: due now, no attempt counted.

use crate::names::{IX_WEBHOOK_OUTBOX_DEAD, IX_WEBHOOK_OUTBOX_DUE};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum WebhookOutbox {
    Table,
    Seq,
    EventId,
    NextAttemptMs,
    DeadAtMs,
    LastError,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters one thing at a time.
        for column in [
            big_integer_null(WebhookOutbox::DeadAtMs),
            string_len_null(WebhookOutbox::LastError, 256),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(WebhookOutbox::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        for (name, first, second) in [
            (
                IX_WEBHOOK_OUTBOX_DUE,
                WebhookOutbox::NextAttemptMs,
                WebhookOutbox::Seq,
            ),
            (
                IX_WEBHOOK_OUTBOX_DEAD,
                WebhookOutbox::DeadAtMs,
                WebhookOutbox::EventId,
            ),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(WebhookOutbox::Table)
                        .col(first)
                        .col(second)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .get_connection()
            .execute_unprepared("UPDATE webhook_outbox SET next_attempt_ms = 0, attempts = 0")
            .await
            .map(|_| ())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in [IX_WEBHOOK_OUTBOX_DUE, IX_WEBHOOK_OUTBOX_DEAD] {
            manager
                .drop_index(
                    Index::drop()
                        .name(name)
                        .table(WebhookOutbox::Table)
                        .to_owned(),
                )
                .await?;
        }
        for column in [WebhookOutbox::DeadAtMs, WebhookOutbox::LastError] {
            manager
                .alter_table(
                    Table::alter()
                        .table(WebhookOutbox::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
