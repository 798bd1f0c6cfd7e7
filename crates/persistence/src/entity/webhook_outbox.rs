//! The `webhook_outbox` table: events still to deliver, in `seq` order.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_outbox")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    pub event_id: Uuid,
    pub attempts: i32,
    /// Unix milliseconds: compared in SQL, which SQLite's text timestamps would not allow.
    pub next_attempt_ms: i64,
    /// Unix milliseconds until which a claim holds the row; 0 when none.
    pub locked_until_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
