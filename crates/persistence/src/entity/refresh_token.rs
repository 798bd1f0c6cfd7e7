//! The `refresh_tokens` table.

use sea_orm::entity::prelude::*;
use std::fmt;
use time::OffsetDateTime;

#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "refresh_tokens")]
pub struct Model {
    /// SHA-256 of the token (32 bytes); the token itself is never stored.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: Vec<u8>,
    pub user_id: Uuid,
    pub family_id: Uuid,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used: bool,
}

// Hand-written to match the domain's `RefreshTokenHash`, which keeps even the digest out of logs.
impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("refresh_tokens::Model")
            .field("user_id", &self.user_id)
            .field("family_id", &self.family_id)
            .field("expires_at", &self.expires_at)
            .field("used", &self.used)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
