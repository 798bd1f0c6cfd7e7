//! The `users` table.

use sea_orm::entity::prelude::*;
use std::fmt;
use time::OffsetDateTime;

#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    /// As received.
    pub email: Option<String>,
    /// Lowercase `email`: the unique, case-insensitive look-up key.
    pub email_normalized: Option<String>,
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    pub email_verified: bool,
    pub password_hash: Option<String>,
    pub created_at: OffsetDateTime,
    /// An operator locked the user.
    pub locked: bool,
}

// Hand-written so neither the email nor the password hash reaches a log line.
impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("users::Model")
            .field("id", &self.id)
            .field("email_verified", &self.email_verified)
            .field("has_password", &self.password_hash.is_some())
            .field("created_at", &self.created_at)
            .field("locked", &self.locked)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
