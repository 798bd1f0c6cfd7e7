//! Drops `ix_linked_accounts_user_id`. The unique index on `(user_id, provider)` starts with
//! `user_id`, so it already finds a user's links and the rows a user's deletion cascades to;
//! the second index only cost every new link one more b-tree insert (a random page, written
//! to the log). `down` creates it again.

use crate::names::IX_LINKED_ACCOUNTS_USER_ID;
use crate::steps::Steps;
use crate::tables::LinkedAccounts;
use sea_orm_migration::sea_orm::DbBackend;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().drop_index(
        IX_LINKED_ACCOUNTS_USER_ID,
        LinkedAccounts::Table,
        [LinkedAccounts::UserId],
    )
}
