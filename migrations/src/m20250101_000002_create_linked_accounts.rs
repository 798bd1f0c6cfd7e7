//! Creates `linked_accounts`: provider accounts tied to users, tokens sealed at rest.

use crate::m20250101_000001_create_users::Users;
use crate::names::{
    FK_LINKED_ACCOUNTS_USER, IX_LINKED_ACCOUNTS_USER_ID, UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
    UX_LINKED_ACCOUNTS_USER_PROVIDER,
};
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
            .create_table(
                Table::create()
                    .table(LinkedAccounts::Table)
                    .col(uuid(LinkedAccounts::Id).primary_key())
                    .col(uuid(LinkedAccounts::UserId))
                    .col(string(LinkedAccounts::Provider))
                    .col(string(LinkedAccounts::Subject))
                    .col(string_null(LinkedAccounts::Email))
                    // Sealed ciphertext (`key-id:base64(...)`), never plaintext.
                    .col(text(LinkedAccounts::AccessToken))
                    .col(text_null(LinkedAccounts::RefreshToken))
                    .col(timestamp_with_time_zone(LinkedAccounts::CreatedAt))
                    .col(timestamp_with_time_zone(LinkedAccounts::UpdatedAt))
                    // Inline, because SQLite cannot add a foreign key to an existing table.
                    .foreign_key(
                        ForeignKey::create()
                            .name(FK_LINKED_ACCOUNTS_USER)
                            .from(LinkedAccounts::Table, LinkedAccounts::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        let indexes = [
            (
                UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
                LinkedAccounts::Provider,
                Some(LinkedAccounts::Subject),
                true,
            ),
            (
                UX_LINKED_ACCOUNTS_USER_PROVIDER,
                LinkedAccounts::UserId,
                Some(LinkedAccounts::Provider),
                true,
            ),
            (
                IX_LINKED_ACCOUNTS_USER_ID,
                LinkedAccounts::UserId,
                None,
                false,
            ),
        ];
        for (name, first, second, unique) in indexes {
            let mut index = Index::create();
            index.name(name).table(LinkedAccounts::Table).col(first);
            if let Some(second) = second {
                index.col(second);
            }
            if unique {
                index.unique();
            }
            manager.create_index(index).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(LinkedAccounts::Table).to_owned())
            .await
    }
}
