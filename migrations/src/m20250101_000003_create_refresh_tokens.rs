//! Creates `refresh_tokens`: SHA-256 digests of the service's refresh tokens, by family.

use crate::names::{
    FK_REFRESH_TOKENS_USER, IX_REFRESH_TOKENS_FAMILY_ID, IX_REFRESH_TOKENS_USER_ID,
};
use crate::steps::Steps;
use crate::tables::RefreshTokens;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    use RefreshTokens::*;
    Steps::default()
        .user_owned(
            Table,
            // The 32-byte digest only: a leaked table hands out no live session.
            binary_len(TokenHash, 32).primary_key().to_owned(),
            FK_REFRESH_TOKENS_USER,
            IX_REFRESH_TOKENS_USER_ID,
            [
                uuid(FamilyId),
                timestamp_with_time_zone(CreatedAt),
                timestamp_with_time_zone(ExpiresAt),
                boolean(Used),
                boolean(Revoked),
            ],
        )
        .index(IX_REFRESH_TOKENS_FAMILY_ID, Table, [FamilyId])
}
