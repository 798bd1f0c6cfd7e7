//! Creates `users`: one row per person, with a case-insensitive unique email.

use crate::names::UX_USERS_EMAIL_NORMALIZED;
use crate::steps::Steps;
use crate::tables::Users;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .create(
            Table::create()
                .table(Users::Table)
                .col(uuid(Users::Id).primary_key())
                // As received, for display; matching uses `email_normalized`.
                .col(string_null(Users::Email))
                .col(string_null(Users::EmailNormalized))
                .col(string_null(Users::FullName))
                .col(string_null(Users::AvatarUrl))
                .col(boolean(Users::EmailVerified))
                .col(string_null(Users::PasswordHash))
                .col(timestamp_with_time_zone(Users::CreatedAt)),
        )
        // NULLs are distinct in a unique index on both backends: many users without email.
        .unique_index(
            UX_USERS_EMAIL_NORMALIZED,
            Users::Table,
            [Users::EmailNormalized],
        )
}
