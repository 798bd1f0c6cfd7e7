//! What the operator API needs (docs/api.md#operator-api):
//!
//! - `users.locked`: an operator locked the user; every login, refresh and access token of
//!   it is refused while it is set. Read with the user on every protected request, so a lock
//!   holds on every instance from the moment it commits.
//! - `audit_events.admin_key_id`: the id (first 8 hex digits of the SHA-256) of the admin
//!   key that made the change; NULL when the user did.
//! - `ix_linked_accounts_provider_user` on `linked_accounts (provider, user_id)`: the users
//!   with a link of one provider, by user id, read as one index range page after page.

use crate::names::IX_LINKED_ACCOUNTS_PROVIDER_USER;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Locked,
}

#[derive(DeriveIden)]
enum AuditEvents {
    Table,
    AdminKeyId,
}

#[derive(DeriveIden)]
enum LinkedAccounts {
    Table,
    Provider,
    UserId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .add_column(boolean(Users::Locked).default(false))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(AuditEvents::Table)
                    .add_column(string_len_null(AuditEvents::AdminKeyId, 16))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(IX_LINKED_ACCOUNTS_PROVIDER_USER)
                    .table(LinkedAccounts::Table)
                    .col(LinkedAccounts::Provider)
                    .col(LinkedAccounts::UserId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(IX_LINKED_ACCOUNTS_PROVIDER_USER)
                    .table(LinkedAccounts::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(AuditEvents::Table)
                    .drop_column(AuditEvents::AdminKeyId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .drop_column(Users::Locked)
                    .to_owned(),
            )
            .await
    }
}
