//! Creates `refresh_families`: one row per session, the row that rotation and revocation
//! lock, with the session's absolute end. Moves revocation from tokens to families.

use crate::names::{FK_REFRESH_FAMILIES_USER, IX_REFRESH_FAMILIES_USER_ID};
use crate::steps::{SchemaSteps, user_owned_table};
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RefreshFamilies {
    Table,
    Id,
    UserId,
    CreatedAt,
    ExpiresAt,
    Revoked,
}

#[derive(DeriveIden)]
enum RefreshTokens {
    Table,
    Revoked,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_user_owned(
                user_owned_table(
                    RefreshFamilies::Table,
                    uuid(RefreshFamilies::Id).primary_key().to_owned(),
                    RefreshFamilies::UserId,
                    FK_REFRESH_FAMILIES_USER,
                )
                .col(timestamp_with_time_zone(RefreshFamilies::CreatedAt))
                // Absolute end of the session: rotation never extends past it.
                .col(timestamp_with_time_zone(RefreshFamilies::ExpiresAt))
                .col(boolean(RefreshFamilies::Revoked)),
                IX_REFRESH_FAMILIES_USER_ID,
            )
            .await?;
        // Sessions that exist today become families that end when their newest token does:
        // they keep working until then, and never slide past it.
        let revoked = match manager.get_database_backend() {
            DbBackend::Postgres => "bool_or(revoked)",
            _ => "MAX(revoked)",
        };
        manager
            .run_sql(&format!(
                "INSERT INTO refresh_families (id, user_id, created_at, expires_at, revoked) \
                 SELECT family_id, user_id, MIN(created_at), MAX(expires_at), {revoked} \
                 FROM refresh_tokens GROUP BY family_id, user_id"
            ))
            .await?;
        manager
            .drop_columns(RefreshTokens::Table, [RefreshTokens::Revoked])
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .add_columns(
                RefreshTokens::Table,
                [boolean(RefreshTokens::Revoked).default(false).to_owned()],
            )
            .await?;
        manager.drop_table_of(RefreshFamilies::Table).await
    }
}
