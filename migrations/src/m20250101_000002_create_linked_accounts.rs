//! Creates `linked_accounts`: provider accounts tied to users, tokens sealed at rest.

use crate::names::{
    FK_LINKED_ACCOUNTS_USER, IX_LINKED_ACCOUNTS_USER_ID, UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
    UX_LINKED_ACCOUNTS_USER_PROVIDER,
};
use crate::steps::{SchemaSteps, user_owned_table};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LinkedAccounts {
    Table,
    Id,
    UserId,
    Provider,
    Subject,
    Email,
    AccessToken,
    RefreshToken,
    CreatedAt,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_user_owned(
                user_owned_table(
                    LinkedAccounts::Table,
                    uuid(LinkedAccounts::Id).primary_key().to_owned(),
                    LinkedAccounts::UserId,
                    FK_LINKED_ACCOUNTS_USER,
                )
                .col(string(LinkedAccounts::Provider))
                .col(string(LinkedAccounts::Subject))
                .col(string_null(LinkedAccounts::Email))
                // Sealed ciphertext (`key-id:base64(...)`), never plaintext.
                .col(text(LinkedAccounts::AccessToken))
                .col(text_null(LinkedAccounts::RefreshToken))
                .col(timestamp_with_time_zone(LinkedAccounts::CreatedAt))
                .col(timestamp_with_time_zone(LinkedAccounts::UpdatedAt)),
                IX_LINKED_ACCOUNTS_USER_ID,
            )
            .await?;
        use LinkedAccounts::{Provider, Subject, Table, UserId};
        manager
            .unique_index(
                UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
                Table,
                [Provider, Subject],
            )
            .await?;
        manager
            .unique_index(UX_LINKED_ACCOUNTS_USER_PROVIDER, Table, [UserId, Provider])
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table_of(LinkedAccounts::Table).await
    }
}
