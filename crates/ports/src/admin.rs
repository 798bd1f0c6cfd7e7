//! The operator's port (docs/api.md#operator-api): finding users, counting their sessions,
//! and the changes support makes. Each change is one transaction with its audit events, like
//! every write of the repository.

use crate::{RemoveLinkError, RepoResult, SealedGrant};
use async_trait::async_trait;
pub use social_login_domain::event_query::EventQuery;
use social_login_domain::{AuditEvent, PageLimit, User, UserFilter, UserId};
use time::OffsetDateTime;

pub use social_login_domain::removal::{LockChange, OperatorUnlink, SessionsRevocation};

/// A removed link's grant, and whether the removal locked the user (a forced removal of
/// the last way to log in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unlinked {
    pub grant: SealedGrant,
    pub locked: bool,
}

/// A search for users: those `filter` names whose id is greater than `after`, at most
/// `limit` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSearch {
    pub filter: UserFilter,
    pub after: Option<UserId>,
    pub limit: PageLimit,
}

/// One page of a search: its users by id, and whether more follow the last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserPage {
    pub users: Vec<User>,
    pub more: bool,
}

impl UserPage {
    /// The page of `limit` users out of `fetched`, which an adapter read one longer than a
    /// page (in id order) to know whether more follow.
    pub fn of_fetched(mut fetched: Vec<User>, limit: PageLimit) -> Self {
        let page = usize::try_from(limit.get()).unwrap_or(usize::MAX);
        let more = fetched.len() > page;
        fetched.truncate(page);
        Self {
            users: fetched,
            more,
        }
    }
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AdminRepository: Send + Sync {
    /// Up to `limit` users that `filter` names, by id, whose id is greater than `after`
    /// (keyset pagination: a user who existed when a listing began is listed exactly once,
    /// whatever is inserted meanwhile).
    async fn find_users(&self, search: UserSearch) -> RepoResult<UserPage>;

    /// How many of the user's sessions are neither revoked nor past their end at `now`.
    async fn active_sessions(&self, user: UserId, now: OffsetDateTime) -> RepoResult<u64>;

    /// Locks (ending every session, `user.locked`) or unlocks (`user.unlocked`) the user.
    /// False when there is no such user (nothing is written).
    async fn set_locked(&self, change: LockChange) -> RepoResult<bool>;

    /// Ends every session of the user (`user.sessions_revoked`). False when there is no
    /// such user (nothing is written).
    async fn revoke_sessions(&self, revocation: SessionsRevocation) -> RepoResult<bool>;

    /// Removes the user's link of `provider` under `domain::admin::decide_unlink`: the
    /// user's own rule, unless `force` removes the last way to log in, which then locks the
    /// user and ends its sessions in the same transaction (`account.unlinked`, and
    /// `user.locked` when it locked).
    async fn unlink(&self, unlink: OperatorUnlink) -> Result<Unlinked, RemoveLinkError>;

    /// The events `query` selects, newest first, at most its limit (keyset on the event id:
    /// a page boundary never skips or repeats an event).
    async fn find_events(&self, query: EventQuery) -> RepoResult<Vec<AuditEvent>>;
}
