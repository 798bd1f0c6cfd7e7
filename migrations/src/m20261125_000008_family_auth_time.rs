//! Adds `refresh_families.auth_time`: when the login that started the session happened.
//! A refresh keeps it, so what needs a recent login (account deletion, linking) is not
//! unlocked by a refreshed token. Existing sessions get their creation time, which is when
//! their login happened: every family so far was started by a login.

use crate::steps::Steps;
use crate::tables::RefreshFamilies;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

/// What a family row written without the column gets (an older instance still running
/// during a rolling upgrade): a login so old it is never recent. Such a session keeps
/// working; deleting the account or linking from it needs a new login, the safe side.
const NEVER_RECENT: &str = "1970-01-01T00:00:00Z";

pub fn steps(_: DbBackend) -> Steps {
    // NOT NULL needs a default on SQLite's ADD COLUMN; the rows are then given theirs.
    let auth_time = timestamp_with_time_zone(RefreshFamilies::AuthTime)
        .default(NEVER_RECENT)
        .to_owned();
    Steps::default()
        .add_columns(RefreshFamilies::Table, &[auth_time])
        .sql("UPDATE refresh_families SET auth_time = created_at")
}
