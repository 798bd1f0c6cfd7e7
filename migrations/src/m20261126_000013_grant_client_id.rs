//! Adds `linked_accounts.grant_client_id`: the client id the stored provider tokens were
//! issued to when an app exchanged them (Sign in with Apple on a device: the app's bundle
//! id, the id_token's `aud`), so that revoking the grant names the client Apple issued it
//! to. NULL, as for every row so far: the provider's configured `client_id`.

use crate::steps::SchemaSteps;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LinkedAccounts {
    Table,
    GrantClientId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .add_columns(
                LinkedAccounts::Table,
                [string_len_null(LinkedAccounts::GrantClientId, 255)],
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_columns(LinkedAccounts::Table, [LinkedAccounts::GrantClientId])
            .await
    }
}
