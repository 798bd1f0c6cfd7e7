//! Releases the addresses that unverified provider emails had claimed (docs/api.md#linking-rules): only a
//! verified provider email or a password account's email stays in the unique, matched column.
//! The address itself is kept in `email`, for display.

use crate::steps::SchemaSteps;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .run_sql(
                "UPDATE users SET email_normalized = NULL \
             WHERE email_verified = FALSE AND password_hash IS NULL",
            )
            .await
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // Re-claiming could collide with the owners who registered since: nothing to undo.
        Ok(())
    }
}
