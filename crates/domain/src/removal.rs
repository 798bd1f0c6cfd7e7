//! Removing a link (a user's disconnect, an operator's unlink) and deleting a user, as write
//! plans (see [`crate::plan`]).

use crate::admin::{Unlink, decide_link_removal};
use crate::disconnect::DisconnectRefused;
use crate::plan::{Write, WritePlan};
use crate::{AuditContext, AuditEventType, LinkedAccount, LoginMethod, ProviderKey, User, UserId};

/// The removal of the user's link of `provider`, under the last-login-method rule;
/// `usable` are the enabled providers, handed to the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRemoval {
    pub user: UserId,
    pub provider: ProviderKey,
    pub usable: Vec<ProviderKey>,
    /// Records `account.unlinked` (and what else the removal does).
    pub audit: AuditContext,
}

/// An operator's removal: as the user's own, unless `force` removes the last way to log
/// in, which then locks the user ([`crate::admin::decide_unlink`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorUnlink {
    pub removal: LinkRemoval,
    pub force: bool,
}

impl OperatorUnlink {
    pub fn remover(&self) -> Remover {
        Remover::Operator { force: self.force }
    }
}

/// Who removes a link, which decides what goes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remover {
    /// The user's own disconnect: every session stays, the one asking included.
    User,
    /// An operator's unlink: the sessions the link began end with it, since support removes
    /// a link mostly when the account is in the wrong hands; `force` removes the last way
    /// in, locking the user and ending every session.
    Operator { force: bool },
}

/// What a removal takes away, and its writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovalPlan {
    pub unlink: Unlink,
    pub writes: WritePlan,
}

impl LinkRemoval {
    /// Decides on the user and all its links as the removal's transaction read them: the
    /// link goes; an operator's removal also ends the sessions it began, a forced one of the
    /// last way in locks the user and ends all of them ([`Remover`]). Records
    /// `account.unlinked`, then `user.locked` when it locks.
    pub fn plan(
        &self,
        user: &User,
        links: &[LinkedAccount],
        by: Remover,
    ) -> Result<RemovalPlan, DisconnectRefused> {
        let force = by == Remover::Operator { force: true };
        let unlink = decide_link_removal(user, links, self.provider, &self.usable, force)?;
        let audit = &self.audit;
        let mut writes = WritePlan::new(audit.outbox);
        writes.write(Write::DeleteLink(unlink.link));
        writes.record(audit.event(
            0,
            AuditEventType::AccountUnlinked,
            self.user,
            Some(self.provider),
        ));
        if unlink.lock {
            writes
                .write(Write::SetLocked {
                    user: self.user,
                    locked: true,
                })
                .write(Write::RevokeSessions {
                    user: self.user,
                    began_with: None,
                })
                .record(audit.event(1, AuditEventType::UserLocked, self.user, None));
        } else if by != Remover::User {
            writes.write(Write::RevokeSessions {
                user: self.user,
                began_with: Some(LoginMethod::Provider(self.provider)),
            });
        }
        Ok(RemovalPlan { unlink, writes })
    }
}

/// The deletion of a user with its links and sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserDeletion {
    pub user: UserId,
    /// Records `user.deleted`.
    pub audit: AuditContext,
}

impl UserDeletion {
    /// The user goes, with its links, sessions and tokens; records `user.deleted`.
    pub fn plan(&self) -> WritePlan {
        let deleted = AuditEventType::UserDeleted;
        self.audit
            .plan(Write::DeleteUser(self.user), deleted, self.user, None)
    }
}

/// An operator's lock or unlock of a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockChange {
    pub user: UserId,
    /// True locks (and ends every session), false unlocks.
    pub locked: bool,
    /// Records `user.locked` or `user.unlocked`.
    pub audit: AuditContext,
}

impl LockChange {
    /// Sets the lock; a lock also ends every session. Records `user.locked` or
    /// `user.unlocked`.
    pub fn plan(&self) -> WritePlan {
        let (user, locked) = (self.user, self.locked);
        let mut writes = WritePlan::new(self.audit.outbox);
        writes.write(Write::SetLocked { user, locked });
        if locked {
            writes.write(Write::RevokeSessions {
                user,
                began_with: None,
            });
        }
        let kind = if locked {
            AuditEventType::UserLocked
        } else {
            AuditEventType::UserUnlocked
        };
        writes.record(self.audit.event(0, kind, user, None));
        writes
    }
}

/// An operator's end of every session of a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionsRevocation {
    pub user: UserId,
    /// Records `user.sessions_revoked`.
    pub audit: AuditContext,
}

impl SessionsRevocation {
    /// Ends every session; records `user.sessions_revoked`.
    pub fn plan(&self) -> WritePlan {
        let write = Write::RevokeSessions {
            user: self.user,
            began_with: None,
        };
        let revoked = AuditEventType::UserSessionsRevoked;
        self.audit.plan(write, revoked, self.user, None)
    }
}
