//! The `linked_accounts` table.

use sea_orm::entity::prelude::*;
use std::fmt;
use time::OffsetDateTime;

#[derive(Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "linked_accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    /// Sealed by the token cipher before it gets here.
    #[sea_orm(column_type = "Text")]
    pub access_token: String,
    #[sea_orm(column_type = "Text", nullable)]
    pub refresh_token: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// Its provider reported the account disabled: it logs nobody in.
    pub disabled: bool,
    /// Unix ms of the last disabled/enabled change applied; `None` before any.
    pub disabled_changed_ms: Option<i64>,
    /// The client the stored tokens were issued to, when not the configured `client_id`
    /// (an Apple grant an app exchanged: its bundle id).
    pub grant_client_id: Option<String>,
    /// The scopes the stored tokens were granted, space separated; empty: unknown.
    #[sea_orm(column_type = "Text")]
    pub scopes: String,
    /// Unix ms when the stored access token stops working; `None`: the provider did not say.
    pub access_expires_ms: Option<i64>,
    /// Unix ms until which one caller is refreshing the stored tokens; `None`: nobody is.
    pub refresh_lease_until_ms: Option<i64>,
}

// Hand-written so that no token, sealed or not, and no email reaches a log line.
impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("linked_accounts::Model")
            .field("id", &self.id)
            .field("user_id", &self.user_id)
            .field("provider", &self.provider)
            .field("subject", &self.subject)
            .field("created_at", &self.created_at)
            .field("updated_at", &self.updated_at)
            .field("disabled", &self.disabled)
            .finish_non_exhaustive()
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// A link belongs to its user: the login path reads both in one query.
    #[sea_orm(
        belongs_to = "super::user::Entity",
        from = "Column::UserId",
        to = "super::user::Column::Id"
    )]
    User,
}

impl Related<super::user::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::User.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
