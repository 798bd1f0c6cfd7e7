//! The `audit_events` table: one row per security-relevant event (docs/api.md#webhooks).

use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_events")]
pub struct Model {
    /// UUIDv7: time-ordered, so a user's events sort newest first by id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub r#type: String,
    pub provider: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub request_id: Option<String>,
    pub created_at: OffsetDateTime,
    /// The admin key that made the change (its id); NULL when the user did.
    pub admin_key_id: Option<String>,
    /// How the change came about when its type does not say (`link_token`).
    pub via: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
