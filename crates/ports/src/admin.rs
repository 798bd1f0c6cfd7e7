//! The operator's port (docs/api.md#operator-api): finding users, counting their sessions,
//! and the changes support makes. Each change is one transaction with its audit events, like
//! every write of the repository.

use crate::{LinkRemoval, RemoveLinkError, RepositoryError, SealedGrant};
use async_trait::async_trait;
use social_login_domain::{
    AuditContext, AuditEvent, AuditEventType, PageLimit, User, UserFilter, UserId,
};
use time::OffsetDateTime;

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
        let page = usize::from(limit.get());
        let more = fetched.len() > page;
        fetched.truncate(page);
        Self {
            users: fetched,
            more,
        }
    }
}

/// An operator's lock or unlock of a user (see [`AdminRepository::set_locked`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockChange {
    pub user: UserId,
    /// True locks (and ends every session), false unlocks.
    pub locked: bool,
    /// Records `user.locked` or `user.unlocked`.
    pub audit: AuditContext,
}

impl LockChange {
    /// The event it records: `user.locked` or `user.unlocked`.
    pub fn event(&self) -> AuditEvent {
        let kind = if self.locked {
            AuditEventType::UserLocked
        } else {
            AuditEventType::UserUnlocked
        };
        self.audit.event(0, kind, self.user, None)
    }
}

/// An operator's end of every session of a user (see [`AdminRepository::revoke_sessions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionsRevocation {
    pub user: UserId,
    /// Records `user.sessions_revoked`.
    pub audit: AuditContext,
}

impl SessionsRevocation {
    /// The `user.sessions_revoked` it records.
    pub fn event(&self) -> AuditEvent {
        self.audit
            .event(0, AuditEventType::UserSessionsRevoked, self.user, None)
    }
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait AdminRepository: Send + Sync {
    /// Up to `limit` users that `filter` names, by id, whose id is greater than `after`
    /// (keyset pagination: a user who existed when a listing began is listed exactly once,
    /// whatever is inserted meanwhile).
    async fn find_users(&self, search: UserSearch) -> Result<UserPage, RepositoryError>;

    /// How many of the user's sessions are neither revoked nor past their end at `now`.
    async fn active_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> Result<u64, RepositoryError>;

    /// Locks (ending every session, `user.locked`) or unlocks (`user.unlocked`) the user.
    /// False when there is no such user (nothing is written).
    async fn set_locked(&self, change: LockChange) -> Result<bool, RepositoryError>;

    /// Ends every session of the user (`user.sessions_revoked`). False when there is no
    /// such user (nothing is written).
    async fn revoke_sessions(
        &self,
        revocation: SessionsRevocation,
    ) -> Result<bool, RepositoryError>;

    /// Removes the user's link of `provider` under `domain::admin::decide_unlink`: the
    /// user's own rule, unless `force` removes the last way to log in, which then locks the
    /// user and ends its sessions in the same transaction (`account.unlinked`, and
    /// `user.locked` when it locked).
    async fn unlink(&self, removal: LinkRemoval, force: bool) -> Result<Unlinked, RemoveLinkError>;
}
