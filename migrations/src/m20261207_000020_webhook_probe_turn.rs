//! Creates `webhook_probe_turn`: one row holding when the next probe of an away webhook
//! receiver may go (Unix ms). An instance takes the turn with one conditional update, so
//! of all the instances that hold the receiver for away, one probes it per period.

use crate::steps::Steps;
use crate::tables::WebhookProbeTurn;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .create(
            Table::create()
                .table(WebhookProbeTurn::Table)
                .col(small_integer(WebhookProbeTurn::Id).primary_key())
                .col(big_integer(WebhookProbeTurn::NextMs)),
        )
        .sql("INSERT INTO webhook_probe_turn (id, next_ms) VALUES (1, 0)")
}
