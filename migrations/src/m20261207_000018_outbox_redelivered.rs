//! Adds `webhook_outbox.redelivered_ms`: when an operator last redelivered the event (Unix
//! ms), from which its three days before it is dead-lettered for its age count again.
//! NULL, as for every row so far: never redelivered, its age counts from the event.

use crate::steps::Steps;
use crate::tables::WebhookOutbox;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().add_columns(
        WebhookOutbox::Table,
        &[big_integer_null(WebhookOutbox::RedeliveredMs)],
    )
}
