//! The `linked_accounts` table.

use sea_orm::entity::prelude::*;
use time::OffsetDateTime;

// `Debug` leaves out every token, sealed or not, and the email.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "linked_accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub provider: String,
    pub subject: String,
    #[debug(skip)]
    pub email: Option<String>,
    /// Sealed by the token cipher before it gets here.
    #[sea_orm(column_type = "Text")]
    #[debug(skip)]
    pub access_token: String,
    #[sea_orm(column_type = "Text", nullable)]
    #[debug(skip)]
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
