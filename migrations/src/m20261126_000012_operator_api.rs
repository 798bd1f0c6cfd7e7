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
use crate::steps::Steps;
use crate::tables::{AuditEvents, LinkedAccounts, Users};
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .add_columns(
            Users::Table,
            &[boolean(Users::Locked).default(false).to_owned()],
        )
        .add_columns(
            AuditEvents::Table,
            &[string_len_null(AuditEvents::AdminKeyId, 16)],
        )
        .index(
            IX_LINKED_ACCOUNTS_PROVIDER_USER,
            LinkedAccounts::Table,
            [LinkedAccounts::Provider, LinkedAccounts::UserId],
        )
}
