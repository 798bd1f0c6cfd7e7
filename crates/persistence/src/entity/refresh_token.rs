//! The `refresh_tokens` table.

use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

// `Debug` leaves out even the digest, as the domain's `RefreshTokenHash` does.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "refresh_tokens")]
pub struct Model {
    /// SHA-256 of the token (32 bytes); the token itself is never stored.
    #[sea_orm(primary_key, auto_increment = false)]
    #[debug(skip)]
    pub token_hash: Vec<u8>,
    pub user_id: Uuid,
    pub family_id: Uuid,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
