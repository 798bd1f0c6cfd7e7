//! Creates `linked_accounts`: provider accounts tied to users, tokens sealed at rest.

use crate::names::{
    FK_LINKED_ACCOUNTS_USER, IX_LINKED_ACCOUNTS_USER_ID, UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
    UX_LINKED_ACCOUNTS_USER_PROVIDER,
};
use crate::steps::Steps;
use crate::tables::LinkedAccounts;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    use LinkedAccounts::*;
    Steps::default()
        .user_owned(
            Table,
            uuid(Id).primary_key().to_owned(),
            FK_LINKED_ACCOUNTS_USER,
            IX_LINKED_ACCOUNTS_USER_ID,
            [
                string(Provider),
                string(Subject),
                string_null(Email),
                // Sealed ciphertext (`key-id:base64(...)`), never plaintext.
                text(AccessToken),
                text_null(RefreshToken),
                timestamp_with_time_zone(CreatedAt),
                timestamp_with_time_zone(UpdatedAt),
            ],
        )
        .unique_index(
            UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
            Table,
            [Provider, Subject],
        )
        .unique_index(UX_LINKED_ACCOUNTS_USER_PROVIDER, Table, [UserId, Provider])
}
