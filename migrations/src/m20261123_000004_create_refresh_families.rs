//! Creates `refresh_families`: one row per session, the row that rotation and revocation
//! lock, with the session's absolute end. Moves revocation from tokens to families.

use crate::m20250101_000001_create_users::Users;
use crate::names::{FK_REFRESH_FAMILIES_USER, IX_REFRESH_FAMILIES_USER_ID};
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
            .create_table(
                Table::create()
                    .table(RefreshFamilies::Table)
                    .col(uuid(RefreshFamilies::Id).primary_key())
                    .col(uuid(RefreshFamilies::UserId))
                    .col(timestamp_with_time_zone(RefreshFamilies::CreatedAt))
                    // Absolute end of the session: rotation never extends past it.
                    .col(timestamp_with_time_zone(RefreshFamilies::ExpiresAt))
                    .col(boolean(RefreshFamilies::Revoked))
                    .foreign_key(
                        ForeignKey::create()
                            .name(FK_REFRESH_FAMILIES_USER)
                            .from(RefreshFamilies::Table, RefreshFamilies::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(IX_REFRESH_FAMILIES_USER_ID)
                    .table(RefreshFamilies::Table)
                    .col(RefreshFamilies::UserId)
                    .to_owned(),
            )
            .await?;
        // Sessions that exist today become families that end when their newest token does:
        // they keep working until then, and never slide past it.
        let revoked = match manager.get_database_backend() {
            DbBackend::Postgres => "bool_or(revoked)",
            _ => "MAX(revoked)",
        };
        manager
            .get_connection()
            .execute_unprepared(&format!(
                "INSERT INTO refresh_families (id, user_id, created_at, expires_at, revoked) \
                 SELECT family_id, user_id, MIN(created_at), MAX(expires_at), {revoked} \
                 FROM refresh_tokens GROUP BY family_id, user_id"
            ))
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(RefreshTokens::Table)
                    .drop_column(RefreshTokens::Revoked)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(RefreshTokens::Table)
                    .add_column(boolean(RefreshTokens::Revoked).default(false))
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(RefreshFamilies::Table).to_owned())
            .await
    }
}
