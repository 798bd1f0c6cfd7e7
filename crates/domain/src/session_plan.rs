//! A session's changes as write plans (see [`crate::plan`]): opening one for a user decided
//! elsewhere, rotating its refresh token under [`crate::refresh::judge_for_user`], ending it.

use crate::admin::UserLocked;
use crate::plan::{Write, WritePlan};
use crate::refresh::{
    PresentedRefresh, RefreshIssue, RefreshRecord, RefreshVerdict, judge_for_user, token_expiry,
};
use crate::session::{NewRefreshToken, SessionStart};
use crate::{AuditContext, AuditEventType, FamilyId, UserId};
use time::{Duration, OffsetDateTime};

/// The start of a session of a user decided elsewhere (a password login).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionOpening {
    pub user: UserId,
    pub session: SessionStart,
    pub now: OffsetDateTime,
    /// Records `user.login`.
    pub audit: AuditContext,
}

impl SessionOpening {
    /// The session with its first token; records `user.login`. Refused when an operator
    /// locked the user (`user_locked`, read by the session's own transaction) since the
    /// login decided: a lock ends every session, so none may start after it.
    pub fn plan(&self, user_locked: bool) -> Result<WritePlan, UserLocked> {
        if user_locked {
            return Err(UserLocked);
        }
        let write = Write::start_session(&self.session, self.user, self.now);
        Ok(self
            .audit
            .plan(write, AuditEventType::UserLogin, self.user, None))
    }
}

/// The exchange of a presented refresh token for its successor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshRotation {
    pub presented: PresentedRefresh,
    /// The successor's hash, stored when the presented token is valid.
    pub successor: crate::refresh::RefreshTokenHash,
    pub now: OffsetDateTime,
    /// How long the successor lives, never past its family's end.
    pub successor_ttl: Duration,
    /// Records `session.refresh_reuse_detected`.
    pub audit: AuditContext,
}

/// A rotated session: its user, and when the login that started it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotated {
    pub user: UserId,
    /// The session: the family the successor joined.
    pub session: FamilyId,
    pub auth_time: OffsetDateTime,
    /// When the successor expires (its family's end at the latest).
    pub expires_at: OffsetDateTime,
}

impl Rotated {
    /// What the successor proves of itself: its session and expiry.
    pub fn successor_issue(&self) -> RefreshIssue {
        RefreshIssue {
            family: self.session,
            expires_at: self.expires_at,
        }
    }
}

/// A rotation refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RotationRefused {
    /// Unknown, expired, revoked.
    #[error("refresh token refused")]
    Invalid,
    /// A used token came back: its family is revoked by the plan.
    #[error("refresh token reuse detected; family revoked")]
    ReuseDetected,
    /// The token's user is locked by an operator: nothing is written.
    #[error("the user is locked")]
    UserLocked,
}

/// What a rotation writes, and what it answers once they are committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RotationPlan {
    pub writes: WritePlan,
    pub outcome: Result<Rotated, RotationRefused>,
}

impl RefreshRotation {
    /// Decides on the presented token as the transaction read it (`None`: unknown), its
    /// user locked by an operator or not: a valid token is spent and its successor stored
    /// in the same family; a used one revokes its family and records
    /// `session.refresh_reuse_detected`; anything else writes nothing. A token that proves
    /// its family is spent by deleting its row (the proof detects its reuse), one of the
    /// earlier format by marking it used, so a family keeps one row however long it lives.
    pub fn plan(&self, record: Option<&RefreshRecord>, user_locked: bool) -> RotationPlan {
        let mut writes = WritePlan::new(self.audit.outbox);
        let outcome = match (record, judge_for_user(record, user_locked, self.now)) {
            (
                Some(record),
                RefreshVerdict::Rotate {
                    user,
                    family,
                    auth_time,
                },
            ) => {
                let presented = self.presented.hash;
                let spend = match self.presented.issued_in {
                    Some(_) => Write::DeleteToken(presented),
                    None => Write::MarkTokenUsed(presented),
                };
                let expires_at =
                    token_expiry(self.now, self.successor_ttl, record.family_expires_at);
                writes
                    .write(spend)
                    .write(Write::InsertToken(NewRefreshToken {
                        hash: self.successor,
                        user_id: user,
                        family,
                        created_at: self.now,
                        expires_at,
                    }));
                Ok(Rotated {
                    user,
                    session: family,
                    auth_time,
                    expires_at,
                })
            }
            (Some(record), RefreshVerdict::ReuseDetected { family }) => {
                let reuse = AuditEventType::SessionRefreshReuseDetected;
                writes
                    .write(Write::RevokeFamily(family))
                    .record(self.audit.event(0, reuse, record.user_id, None));
                Err(RotationRefused::ReuseDetected)
            }
            (_, RefreshVerdict::UserLocked) => Err(RotationRefused::UserLocked),
            _ => Err(RotationRefused::Invalid),
        };
        RotationPlan { writes, outcome }
    }
}

/// The end of the session of a presented refresh token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logout {
    pub presented: PresentedRefresh,
    /// Records `session.logout`.
    pub audit: AuditContext,
}

impl Logout {
    /// Revokes the presented token's family and records `session.logout`, once: a family
    /// revoked already, or an unknown token, writes nothing.
    pub fn plan(&self, record: Option<&RefreshRecord>) -> WritePlan {
        match record.filter(|record| !record.revoked) {
            Some(record) => {
                let write = Write::RevokeFamily(record.family);
                let logout = AuditEventType::SessionLogout;
                self.audit.plan(write, logout, record.user_id, None)
            }
            None => WritePlan::new(self.audit.outbox),
        }
    }
}
