//! Replaces `ix_refresh_families_user_id` with an index on `(user_id, created_at)`. A user's
//! session list reads their newest sessions; on `user_id` alone the database read and sorted
//! every session the user ever started before keeping the newest. The new index starts with
//! `user_id`, so it still serves a user's deletion (the cascade), revocations and counts.
//! `down` puts the old index back. An operator may have built the new index beforehand
//! (`CREATE INDEX CONCURRENTLY`); one such build that failed leaves an invalid index under
//! the name, which PostgreSQL never uses: it is dropped first, and built again here.

use crate::names::{IX_REFRESH_FAMILIES_USER_CREATED, IX_REFRESH_FAMILIES_USER_ID};
use crate::steps::Steps;
use crate::tables::RefreshFamilies;
use sea_orm_migration::sea_orm::DbBackend;

/// Drops the new index when a concurrent build left it invalid.
const DROP_INVALID: &str = "DO $$ BEGIN \
     IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
     WHERE c.relname = 'ix_refresh_families_user_created' AND NOT i.indisvalid) \
     THEN DROP INDEX ix_refresh_families_user_created; END IF; END $$";

pub fn steps(backend: DbBackend) -> Steps {
    let steps = match backend {
        DbBackend::Postgres => Steps::default().sql(DROP_INVALID),
        _ => Steps::default(),
    };
    steps
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
