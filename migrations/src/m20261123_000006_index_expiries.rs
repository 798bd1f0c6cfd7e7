//! Indexes on the expiry of refresh tokens and families, so housekeeping finds what has
//! expired without reading every row (a million sessions must not mean a full scan).

use crate::names::{IX_REFRESH_FAMILIES_EXPIRES_AT, IX_REFRESH_TOKENS_EXPIRES_AT};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum RefreshFamilies {
    Table,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(IX_REFRESH_TOKENS_EXPIRES_AT)
                    .table(RefreshTokens::Table)
                    .col(RefreshTokens::ExpiresAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(IX_REFRESH_FAMILIES_EXPIRES_AT)
                    .table(RefreshFamilies::Table)
                    .col(RefreshFamilies::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (name, table) in [
            (
                IX_REFRESH_TOKENS_EXPIRES_AT,
                RefreshTokens::Table.into_iden(),
            ),
            (
                IX_REFRESH_FAMILIES_EXPIRES_AT,
                RefreshFamilies::Table.into_iden(),
            ),
        ] {
            manager
                .drop_index(Index::drop().name(name).table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
