//! Releases the addresses that unverified provider emails had claimed (docs/api.md#linking-rules): only a
//! verified provider email or a password account's email stays in the unique, matched column.
//! The address itself is kept in `email`, for display.

use crate::steps::Steps;
use sea_orm_migration::sea_orm::DbBackend;

pub fn steps(_: DbBackend) -> Steps {
    // Nothing undoes it: re-claiming could collide with the owners who registered since.
    Steps::default().sql(
        "UPDATE users SET email_normalized = NULL \
         WHERE email_verified = FALSE AND password_hash IS NULL",
    )
}
