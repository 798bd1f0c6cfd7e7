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
            .alter_table(
                Table::alter()
                    .table(RefreshFamilies::Table)
                    .add_column(string_len_null(RefreshFamilies::BeganWith, 32))
                    .to_owned(),
            )
            .await?;
        // One column per statement: SQLite alters one thing at a time.
        for column in [
            boolean(LinkedAccounts::Disabled).default(false).to_owned(),
            big_integer_null(LinkedAccounts::DisabledChangedMs),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(LinkedAccounts::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(SignalReceipts::Table)
                    .col(string_len(SignalReceipts::Source, 32))
                    .col(string_len(SignalReceipts::SignalId, 255))
                    .col(big_integer(SignalReceipts::ReceivedMs))
                    .primary_key(
                        Index::create()
                            .col(SignalReceipts::Source)
                            .col(SignalReceipts::SignalId),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(IX_SIGNAL_RECEIPTS_RECEIVED)
                    .table(SignalReceipts::Table)
                    .col(SignalReceipts::ReceivedMs)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(SignalReceipts::Table).to_owned())
            .await?;
        for column in [LinkedAccounts::Disabled, LinkedAccounts::DisabledChangedMs] {
            manager
                .alter_table(
                    Table::alter()
                        .table(LinkedAccounts::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(RefreshFamilies::Table)
                    .drop_column(RefreshFamilies::BeganWith)
                    .to_owned(),
            )
            .await
    }
}
