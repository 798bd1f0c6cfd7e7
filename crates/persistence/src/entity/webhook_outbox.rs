//! The `webhook_outbox` table: events still to deliver, each on its own schedule, and the
//! dead letters (`dead_at_ms` set).

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
    /// Unix milliseconds when the row became a dead letter; `None` while it is pending.
    pub dead_at_ms: Option<i64>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// Unix milliseconds of the operator's last redelivery; `None` if never redelivered.
    pub redelivered_ms: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
