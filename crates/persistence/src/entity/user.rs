//! The `users` table.

use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

// `Debug` leaves out the email, the name and the password hash: no log line shows them.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    /// As received.
    #[debug(skip)]
    pub email: Option<String>,
    /// Lowercase `email`: the unique, case-insensitive look-up key.
    #[debug(skip)]
    pub email_normalized: Option<String>,
    #[debug(skip)]
    pub full_name: Option<String>,
    #[debug(skip)]
    pub avatar_url: Option<String>,
    pub email_verified: bool,
    #[debug("{}", password_hash.is_some())]
    pub password_hash: Option<String>,
    pub created_at: OffsetDateTime,
    /// An operator locked the user.
    pub locked: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
