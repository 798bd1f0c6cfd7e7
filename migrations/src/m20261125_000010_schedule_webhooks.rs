//! Gives each queued webhook event its own schedule and a dead-letter state, so one event the
//! receiver refuses no longer holds back the others.
//!
//! `dead_at_ms` (Unix milliseconds) marks a dead letter, `last_error` keeps why the last
//! attempt failed. `ix_webhook_outbox_due (next_attempt_ms, seq)` serves the claim (soonest
//! due first); `ix_webhook_outbox_dead (dead_at_ms, event_id)` the counts, the age and size
//! bounds (pending rows by time-ordered event id) and the dead-letter list. Rows queued
//! before this migration start afresh: due now, no attempt counted.

use crate::names::{IX_WEBHOOK_OUTBOX_DEAD, IX_WEBHOOK_OUTBOX_DUE};
use crate::steps::Steps;
use crate::tables::WebhookOutbox;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    use WebhookOutbox::*;
    Steps::default()
        .add_columns(
            Table,
            &[big_integer_null(DeadAtMs), string_len_null(LastError, 256)],
        )
        .index(IX_WEBHOOK_OUTBOX_DUE, Table, [NextAttemptMs, Seq])
        .index(IX_WEBHOOK_OUTBOX_DEAD, Table, [DeadAtMs, EventId])
        .sql("UPDATE webhook_outbox SET next_attempt_ms = 0, attempts = 0")
}
