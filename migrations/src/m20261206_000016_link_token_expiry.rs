//! Adds to `linked_accounts` what calling a provider's API for the user needs:
//! `access_expires_ms`, when the stored access token stops working (unix ms; NULL: the
//! provider did not say), and `refresh_lease_until_ms`, until when one caller, on any
//! instance, is refreshing the stored tokens (unix ms; NULL: nobody is).

use crate::steps::Steps;
use crate::tables::LinkedAccounts;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default().add_columns(
        LinkedAccounts::Table,
        &[
            big_integer_null(LinkedAccounts::AccessExpiresMs),
            big_integer_null(LinkedAccounts::RefreshLeaseUntilMs),
        ],
    )
}
