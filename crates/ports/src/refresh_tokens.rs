//! The refresh-token port: sessions as families of rotating tokens, opened, rotated and
//! ended each in one transaction of the adapter.

use crate::repository_error::RepositoryError;
use async_trait::async_trait;
use social_login_domain::refresh::{
    RefreshRecord, RefreshTokenHash, RefreshVerdict, judge_for_user, token_expiry,
};
pub use social_login_domain::session::{NewRefreshToken, SessionStart};
use social_login_domain::{AuditContext, AuditEvent, AuditEventType, FamilyId, UserId};
use time::{Duration, OffsetDateTime};

/// A rotated session: its user, and when the login that started it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotated {
    pub user: UserId,
    pub auth_time: OffsetDateTime,
}

/// The start of a session of a user decided elsewhere (see
/// [`RefreshTokenRepository::start_family`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionOpening {
    pub user: UserId,
    pub session: SessionStart,
    pub now: OffsetDateTime,
    /// Records `user.login`.
    pub audit: AuditContext,
}

impl SessionOpening {
    /// The session's first token.
    pub fn first_token(&self) -> NewRefreshToken {
        self.session.first_token(self.user, self.now)
    }

    /// The `user.login` it records.
    pub fn event(&self) -> AuditEvent {
        self.audit
            .event(0, AuditEventType::UserLogin, self.user, None)
    }
}

/// The exchange of a presented refresh token for its successor (see
/// [`RefreshTokenRepository::rotate_refresh`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshRotation {
    pub presented: RefreshTokenHash,
    /// The successor's hash, stored when the presented token is valid.
    pub successor: RefreshTokenHash,
    pub now: OffsetDateTime,
    /// How long the successor lives, never past its family's end.
    pub successor_ttl: Duration,
    /// Records `session.refresh_reuse_detected`.
    pub audit: AuditContext,
}

/// What a rotation writes, decided by [`RefreshRotation::decide`] on what its transaction
/// read. The adapter writes it, commits, and only then tells the outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RotationStep {
    /// Mark the presented token used and store `successor`; then answer `rotated`.
    Rotate {
        successor: NewRefreshToken,
        rotated: Rotated,
    },
    /// A used token came back: revoke `family` and record `event`; then answer
    /// [`RotateError::ReuseDetected`].
    RevokeFamily { family: FamilyId, event: AuditEvent },
    /// Write nothing; answer the error.
    Refuse(RotateError),
}

impl RefreshRotation {
    /// What to write for the presented token as the transaction read it (`None`: unknown),
    /// its user locked by an operator or not: `domain::refresh::judge_for_user` decides.
    pub fn decide(&self, record: Option<&RefreshRecord>, user_locked: bool) -> RotationStep {
        match (record, judge_for_user(record, user_locked, self.now)) {
            (
                Some(record),
                RefreshVerdict::Rotate {
                    user,
                    family,
                    auth_time,
                },
            ) => RotationStep::Rotate {
                successor: NewRefreshToken {
                    hash: self.successor,
                    user_id: user,
                    family,
                    created_at: self.now,
                    expires_at: token_expiry(
                        self.now,
                        self.successor_ttl,
                        record.family_expires_at,
                    ),
                },
                rotated: Rotated { user, auth_time },
            },
            (Some(record), RefreshVerdict::ReuseDetected { family }) => {
                RotationStep::RevokeFamily {
                    family,
                    event: self.audit.event(
                        0,
                        AuditEventType::SessionRefreshReuseDetected,
                        record.user_id,
                        None,
                    ),
                }
            }
            (_, RefreshVerdict::UserLocked) => RotationStep::Refuse(RotateError::UserLocked),
            _ => RotationStep::Refuse(RotateError::Refused),
        }
    }
}

/// The end of the session of a presented refresh token (see
/// [`RefreshTokenRepository::revoke_refresh`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logout {
    pub presented: RefreshTokenHash,
    /// Records `session.logout`.
    pub audit: AuditContext,
}

impl Logout {
    /// The `session.logout` of the session's `user`.
    pub fn event(&self, user: UserId) -> AuditEvent {
        self.audit
            .event(0, AuditEventType::SessionLogout, user, None)
    }
}

impl RotationStep {
    /// What the rotation answers once this step is committed.
    pub fn outcome(self) -> Result<Rotated, RotateError> {
        match self {
            Self::Rotate { rotated, .. } => Ok(rotated),
            Self::RevokeFamily { .. } => Err(RotateError::ReuseDetected),
            Self::Refuse(error) => Err(error),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RotateError {
    /// Unknown, expired, revoked.
    #[error("refresh token refused")]
    Refused,
    /// A used token came back: its family is now revoked.
    #[error("refresh token reuse detected; family revoked")]
    ReuseDetected,
    /// The token's user is locked by an operator: nothing was written.
    #[error("the user is locked")]
    UserLocked,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Stored refresh tokens (hashes only), grouped in families.
///
/// Rotation and revocation of one family are serialised on one row per family (a row lock
/// in PostgreSQL), so a revocation can never miss a rotation in flight: either the rotation
/// commits first and its successor is revoked with the family, or it sees the family revoked.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait RefreshTokenRepository: Send + Sync {
    /// A new session of `opening.user` starting `opening.now`: its family (with its end and
    /// `auth_time`) and its first token, in one transaction (both or neither).
    /// Records `user.login`.
    async fn start_family(&self, opening: SessionOpening) -> Result<(), RepositoryError>;

    /// In one transaction holding the family's lock, judges the presented token with
    /// [`RefreshRotation::decide`] (`domain::refresh::judge`, after the user's lock):
    /// valid → marks it used, stores the successor in the same family for the same user,
    /// expiring `successor_ttl` from `now` but never after the family ends, and returns the
    /// user with the family's `auth_time` (unchanged: a refresh is not a login); reused →
    /// revokes the family and records `session.refresh_reuse_detected`.
    /// Of concurrent rotations of one token, one wins.
    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError>;

    /// Logout: revokes the family of `logout.presented` and records `session.logout` (once:
    /// a family revoked already records nothing). Unknown tokens are not an error.
    async fn revoke_refresh(&self, logout: Logout) -> Result<(), RepositoryError>;

    /// Housekeeping: deletes up to `limit` tokens that expired before `now`, then up to
    /// `limit` families that ended before `now` with their tokens. Returns how many rows
    /// went; the caller repeats while it is `limit`, so no single statement holds locks long.
    async fn prune_expired(&self, now: OffsetDateTime, limit: u64) -> Result<u64, RepositoryError>;
}
