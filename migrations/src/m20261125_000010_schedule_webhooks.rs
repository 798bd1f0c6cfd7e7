//! Gives each queued webhook event its own schedule and a dead-letter state, so one event the
//! receiver refuses no longer holds back the others.
//!
//! `dead_at_ms` (Unix milliseconds) marks a dead letter, `last_error` keeps why the last
//! attempt failed. `ix_webhook_outbox_due (next_attempt_ms, seq)` serves the claim (soonest
//! due first); `ix_webhook_outbox_dead (dead_at_ms, event_id)` the counts, the age and size
//! bounds (pending rows by time-ordered event id) and the dead-letter list. Rows queued
//! before this migration start afresh: due now, no attempt counted.

use crate::names::{IX_WEBHOOK_OUTBOX_DEAD, IX_WEBHOOK_OUTBOX_DUE};
use crate::steps::SchemaSteps;
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
        manager
            .add_columns(
                WebhookOutbox::Table,
                [
                    big_integer_null(WebhookOutbox::DeadAtMs),
                    string_len_null(WebhookOutbox::LastError, 256),
                ],
            )
            .await?;
        use WebhookOutbox::{DeadAtMs, EventId, NextAttemptMs, Seq, Table};
        manager
            .index(IX_WEBHOOK_OUTBOX_DUE, Table, [NextAttemptMs, Seq])
            .await?;
        manager
            .index(IX_WEBHOOK_OUTBOX_DEAD, Table, [DeadAtMs, EventId])
            .await?;
        manager
            .run_sql("UPDATE webhook_outbox SET next_attempt_ms = 0, attempts = 0")
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in [IX_WEBHOOK_OUTBOX_DUE, IX_WEBHOOK_OUTBOX_DEAD] {
            manager.drop_index_of(name, WebhookOutbox::Table).await?;
        }
        manager
            .drop_columns(
                WebhookOutbox::Table,
                [WebhookOutbox::DeadAtMs, WebhookOutbox::LastError],
            )
            .await
    }
}
