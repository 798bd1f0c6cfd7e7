//! Creates `refresh_families`: one row per session, the row that rotation and revocation
//! lock, with the session's absolute end. Moves revocation from tokens to families.

use crate::names::{FK_REFRESH_FAMILIES_USER, IX_REFRESH_FAMILIES_USER_ID};
use crate::steps::Steps;
use crate::tables::{RefreshFamilies, RefreshTokens};
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(backend: DbBackend) -> Steps {
    // Sessions that exist today become families that end when their newest token does:
    // they keep working until then, and never slide past it.
    let revoked = match backend {
        DbBackend::Postgres => "bool_or(revoked)",
        _ => "MAX(revoked)",
    };
    Steps::default()
        .user_owned(
            RefreshFamilies::Table,
            uuid(RefreshFamilies::Id).primary_key().to_owned(),
            FK_REFRESH_FAMILIES_USER,
            IX_REFRESH_FAMILIES_USER_ID,
            [
                timestamp_with_time_zone(RefreshFamilies::CreatedAt),
                // Absolute end of the session: rotation never extends past it.
                timestamp_with_time_zone(RefreshFamilies::ExpiresAt),
                boolean(RefreshFamilies::Revoked),
            ],
        )
        .sql(format!(
            "INSERT INTO refresh_families (id, user_id, created_at, expires_at, revoked) \
             SELECT family_id, user_id, MIN(created_at), MAX(expires_at), {revoked} \
             FROM refresh_tokens GROUP BY family_id, user_id"
        ))
        .drop_columns(
            RefreshTokens::Table,
            &[boolean(RefreshTokens::Revoked).default(false).to_owned()],
        )
}
