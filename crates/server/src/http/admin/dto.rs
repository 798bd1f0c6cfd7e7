//! The operator API's bodies: a user as support sees it (docs/api.md#operator-api).

use super::cursor;
use crate::http::dto::{LinkedAccountRead, UserRead};
use serde::Serialize;
use social_login_app::UserDetails;
use social_login_domain::User;
use social_login_ports::UserPage;
use utoipa::ToSchema;

/// UserRead and whether an operator locked the user.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminUserRead {
    #[serde(flatten)]
    pub user: UserRead,
    pub locked: bool,
}

impl From<&User> for AdminUserRead {
    fn from(user: &User) -> Self {
        Self {
            user: UserRead::from(user),
            locked: user.locked,
        }
    }
}

/// One page of `GET /admin/users`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserList {
    pub users: Vec<AdminUserRead>,
    /// Pass as `cursor` for the next page; null on the last one.
    pub next_cursor: Option<String>,
}

impl From<UserPage> for UserList {
    fn from(page: UserPage) -> Self {
        let next_cursor = page
            .more
            .then(|| page.users.last().map(|user| cursor::encode(user.id)))
            .flatten();
        Self {
            users: page.users.iter().map(AdminUserRead::from).collect(),
            next_cursor,
        }
    }
}

/// `GET /admin/users/{id}`: UserRead, `locked`, the linked accounts and the number of
/// sessions neither revoked nor ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminUserDetails {
    #[serde(flatten)]
    pub user: UserRead,
    pub locked: bool,
    pub linked_accounts: Vec<LinkedAccountRead>,
    pub active_sessions: u64,
}

impl From<&UserDetails> for AdminUserDetails {
    fn from(details: &UserDetails) -> Self {
        Self {
            user: UserRead::from(&details.user),
            locked: details.user.locked,
            linked_accounts: details.links.iter().map(LinkedAccountRead::from).collect(),
            active_sessions: details.active_sessions,
        }
    }
}
