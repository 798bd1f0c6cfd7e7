//! Creates `refresh_tokens`: SHA-256 digests of the service's refresh tokens, by family.

use crate::m20250101_000001_create_users::Users;
use crate::names::{
    FK_REFRESH_TOKENS_USER, IX_REFRESH_TOKENS_FAMILY_ID, IX_REFRESH_TOKENS_USER_ID,
};
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
            .create_table(
                Table::create()
                    .table(RefreshTokens::Table)
                    // The 32-byte digest only: a leaked table hands out no live session.
                    .col(binary_len(RefreshTokens::TokenHash, 32).primary_key())
                    .col(uuid(RefreshTokens::UserId))
                    .col(uuid(RefreshTokens::FamilyId))
                    .col(timestamp_with_time_zone(RefreshTokens::CreatedAt))
                    .col(timestamp_with_time_zone(RefreshTokens::ExpiresAt))
                    .col(boolean(RefreshTokens::Used))
                    .col(boolean(RefreshTokens::Revoked))
                    .foreign_key(
                        ForeignKey::create()
                            .name(FK_REFRESH_TOKENS_USER)
                            .from(RefreshTokens::Table, RefreshTokens::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, column) in [
            (IX_REFRESH_TOKENS_FAMILY_ID, RefreshTokens::FamilyId),
            (IX_REFRESH_TOKENS_USER_ID, RefreshTokens::UserId),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(RefreshTokens::Table)
                        .col(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(RefreshTokens::Table).to_owned())
            .await
    }
}
