//! Adds `linked_accounts.grant_client_id`: the client id the stored provider tokens were
//! issued to when an app exchanged them (Sign in with Apple on a device: the app's bundle
//! id, the id_token's `aud`), so that revoking the grant names the client Apple issued it
//! to. NULL, as for every row so far: the provider's configured `client_id`.

use crate::steps::Steps;
use crate::tables::LinkedAccounts;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().add_columns(
        LinkedAccounts::Table,
        &[string_len_null(LinkedAccounts::GrantClientId, 255)],
    )
}
