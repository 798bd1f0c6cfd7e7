//! The `signal_receipts` table: one row per provider signal handled, so each acts once.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "signal_receipts")]
pub struct Model {
    /// `SignalSource::as_str`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub source: String,
    /// The signal's `jti`, or a Facebook request's confirmation code.
    #[sea_orm(primary_key, auto_increment = false)]
    pub signal_id: String,
    /// Unix milliseconds: compared in SQL, which SQLite's text timestamps would not allow.
    pub received_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
