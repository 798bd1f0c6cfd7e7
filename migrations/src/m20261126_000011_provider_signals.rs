//! What provider signals need (docs/api.md, "Signals from providers"):
//!
//! - `refresh_families.began_with`: the login that started the session, `password` or the
//!   provider key, so a provider's signal ends only the sessions its accounts began. Rows
//!   from before are NULL, unknown: only the whole-user actions (deletion, a disabled
//!   account) end them.
//! - `linked_accounts.disabled` and `disabled_changed_ms`: a provider account its provider
//!   reported disabled logs nobody in until it is enabled again; the time (Unix ms) of the
//!   last change applied keeps a late, older change from undoing a newer one.
//! - `signal_receipts`: one row per signal handled, primary key (source, signal_id), so the
//!   same signal acts once however often and on however many instances it arrives;
//!   `received_ms` (Unix ms, comparable in SQL on SQLite too) for housekeeping.

use crate::names::IX_SIGNAL_RECEIPTS_RECEIVED;
use crate::steps::SchemaSteps;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum RefreshFamilies {
    Table,
    BeganWith,
}

#[derive(DeriveIden)]
enum LinkedAccounts {
    Table,
    Disabled,
    DisabledChangedMs,
}

#[derive(DeriveIden)]
enum SignalReceipts {
    Table,
    Source,
    SignalId,
    ReceivedMs,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .add_columns(
                RefreshFamilies::Table,
                [string_len_null(RefreshFamilies::BeganWith, 32)],
            )
            .await?;
        manager
            .add_columns(
                LinkedAccounts::Table,
                [
                    boolean(LinkedAccounts::Disabled).default(false).to_owned(),
                    big_integer_null(LinkedAccounts::DisabledChangedMs),
                ],
            )
            .await?;
        manager
            .create(
                Table::create()
                    .table(SignalReceipts::Table)
                    .col(string_len(SignalReceipts::Source, 32))
                    .col(string_len(SignalReceipts::SignalId, 255))
                    .col(big_integer(SignalReceipts::ReceivedMs))
                    .primary_key(
                        Index::create()
                            .col(SignalReceipts::Source)
                            .col(SignalReceipts::SignalId),
                    ),
            )
            .await?;
        manager
            .index(
                IX_SIGNAL_RECEIPTS_RECEIVED,
                SignalReceipts::Table,
                [SignalReceipts::ReceivedMs],
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table_of(SignalReceipts::Table).await?;
        manager
            .drop_columns(
                LinkedAccounts::Table,
                [LinkedAccounts::Disabled, LinkedAccounts::DisabledChangedMs],
            )
            .await?;
        manager
            .drop_columns(RefreshFamilies::Table, [RefreshFamilies::BeganWith])
            .await
    }
}
