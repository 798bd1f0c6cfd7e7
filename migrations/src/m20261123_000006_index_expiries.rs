//! Indexes on the expiry of refresh tokens and families, so housekeeping finds what has
//! expired without reading every row (a million sessions must not mean a full scan).

use crate::names::{IX_REFRESH_FAMILIES_EXPIRES_AT, IX_REFRESH_TOKENS_EXPIRES_AT};
use crate::steps::SchemaSteps;
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
            .index(
                IX_REFRESH_TOKENS_EXPIRES_AT,
                RefreshTokens::Table,
                [RefreshTokens::ExpiresAt],
            )
            .await?;
        manager
            .index(
                IX_REFRESH_FAMILIES_EXPIRES_AT,
                RefreshFamilies::Table,
                [RefreshFamilies::ExpiresAt],
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index_of(IX_REFRESH_TOKENS_EXPIRES_AT, RefreshTokens::Table)
            .await?;
        manager
            .drop_index_of(IX_REFRESH_FAMILIES_EXPIRES_AT, RefreshFamilies::Table)
            .await
    }
}
