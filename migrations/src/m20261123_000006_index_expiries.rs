//! Indexes on the expiry of refresh tokens and families, so housekeeping finds what has
//! expired without reading every row (a million sessions must not mean a full scan).

use crate::names::{IX_REFRESH_FAMILIES_EXPIRES_AT, IX_REFRESH_TOKENS_EXPIRES_AT};
use crate::steps::Steps;
use crate::tables::{RefreshFamilies, RefreshTokens};
use sea_orm_migration::sea_orm::DbBackend;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .index(
            IX_REFRESH_TOKENS_EXPIRES_AT,
            RefreshTokens::Table,
            [RefreshTokens::ExpiresAt],
        )
        .index(
            IX_REFRESH_FAMILIES_EXPIRES_AT,
            RefreshFamilies::Table,
            [RefreshFamilies::ExpiresAt],
        )
}
