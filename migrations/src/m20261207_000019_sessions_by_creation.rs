//! Replaces `ix_refresh_families_user_id` with an index on `(user_id, created_at)`. A user's
//! session list reads their newest sessions; on `user_id` alone the database read and sorted
//! every session the user ever started before keeping the newest. The new index starts with
//! `user_id`, so it still serves a user's deletion (the cascade), revocations and counts.
//! `down` puts the old index back. An index an operator built beforehand is kept (an invalid
//! one built again: `Steps::index`).

use crate::names::{IX_REFRESH_FAMILIES_USER_CREATED, IX_REFRESH_FAMILIES_USER_ID};
use crate::steps::Steps;
use crate::tables::RefreshFamilies;
use sea_orm_migration::sea_orm::DbBackend;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .index(
            IX_REFRESH_FAMILIES_USER_CREATED,
            RefreshFamilies::Table,
            [RefreshFamilies::UserId, RefreshFamilies::CreatedAt],
        )
        .drop_index(
            IX_REFRESH_FAMILIES_USER_ID,
            RefreshFamilies::Table,
            [RefreshFamilies::UserId],
        )
}
