//! Adds `users.profile_provider`: the provider whose account gave the user's name, avatar and
//! email at registration, so that its data deletion can take them. A user without password
//! registered through the link created in the same instant as itself (registration writes
//! both at once); a user whose registering link is gone since keeps NULL, as does a password
//! registration.

use crate::steps::Steps;
use crate::tables::Users;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::schema::*;

pub fn steps(_: DbBackend) -> Steps {
    Steps::default()
        .add_columns(Users::Table, &[string_len_null(Users::ProfileProvider, 32)])
        .sql(
            "UPDATE users SET profile_provider = (SELECT l.provider FROM linked_accounts l \
             WHERE l.user_id = users.id AND l.created_at = users.created_at \
             ORDER BY l.provider LIMIT 1) WHERE password_hash IS NULL",
        )
}
