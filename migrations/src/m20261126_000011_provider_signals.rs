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
use crate::steps::Steps;
use crate::tables::{LinkedAccounts, RefreshFamilies, SignalReceipts};
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

pub fn steps(_: DbBackend) -> Steps {
    use SignalReceipts as Receipts;
    let disabled = boolean(LinkedAccounts::Disabled).default(false).to_owned();
    Steps::default()
        .add_columns(
            RefreshFamilies::Table,
            &[string_len_null(RefreshFamilies::BeganWith, 32)],
        )
        .add_columns(
            LinkedAccounts::Table,
            &[
                disabled,
                big_integer_null(LinkedAccounts::DisabledChangedMs),
            ],
        )
        .create(
            Table::create()
                .table(Receipts::Table)
                .col(string_len(Receipts::Source, 32))
                .col(string_len(Receipts::SignalId, 255))
                .col(big_integer(Receipts::ReceivedMs))
                .primary_key(
                    Index::create()
                        .col(Receipts::Source)
                        .col(Receipts::SignalId),
                ),
        )
        .index(
            IX_SIGNAL_RECEIPTS_RECEIVED,
            Receipts::Table,
            [Receipts::ReceivedMs],
        )
}
