//! Adds `linked_accounts.scopes`: the scopes the stored provider tokens were granted, space
//! separated (RFC 6749's scope tokens hold no space). Empty, as for every row so far: unknown.

use crate::steps::Steps;
use crate::tables::LinkedAccounts;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().add_columns(
        LinkedAccounts::Table,
        &[text(LinkedAccounts::Scopes).default("").to_owned()],
    )
}
