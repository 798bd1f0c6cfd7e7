//! The `refresh_families` table: one row per session, locked by rotation and revocation.

use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "refresh_families")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub revoked: bool,
    /// When the login that started the session happened; rotation never changes it.
    pub auth_time: OffsetDateTime,
    /// The login that started it: `password` or a provider key; `None` for sessions from
    /// before it was recorded.
    pub began_with: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
