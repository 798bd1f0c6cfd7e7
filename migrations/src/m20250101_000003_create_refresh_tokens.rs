//! Creates `refresh_tokens`: SHA-256 digests of the service's refresh tokens, by family.

use crate::names::{
    FK_REFRESH_TOKENS_USER, IX_REFRESH_TOKENS_FAMILY_ID, IX_REFRESH_TOKENS_USER_ID,
};
use crate::steps::{SchemaSteps, user_owned_table};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    TokenHash,
    UserId,
    FamilyId,
    CreatedAt,
    ExpiresAt,
    Used,
    Revoked,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_user_owned(
                user_owned_table(
                    RefreshTokens::Table,
                    // The 32-byte digest only: a leaked table hands out no live session.
                    binary_len(RefreshTokens::TokenHash, 32)
                        .primary_key()
                        .to_owned(),
                    RefreshTokens::UserId,
                    FK_REFRESH_TOKENS_USER,
                )
                .col(uuid(RefreshTokens::FamilyId))
                .col(timestamp_with_time_zone(RefreshTokens::CreatedAt))
                .col(timestamp_with_time_zone(RefreshTokens::ExpiresAt))
                .col(boolean(RefreshTokens::Used))
                .col(boolean(RefreshTokens::Revoked)),
                IX_REFRESH_TOKENS_USER_ID,
            )
            .await?;
        manager
            .index(
                IX_REFRESH_TOKENS_FAMILY_ID,
                RefreshTokens::Table,
                [RefreshTokens::FamilyId],
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table_of(RefreshTokens::Table).await
    }
}
