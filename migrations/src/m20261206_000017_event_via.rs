//! Adds `audit_events.via`: how a change came about when its type does not say
//! (`link_token`: an `account.linked` completed with a link token). NULL, as for every event
//! so far: nothing to add.

use crate::steps::Steps;
use crate::tables::AuditEvents;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().add_columns(AuditEvents::Table, &[string_len_null(AuditEvents::Via, 32)])
}
