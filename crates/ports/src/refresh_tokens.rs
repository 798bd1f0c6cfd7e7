//! The refresh-token port: sessions as families of rotating tokens, opened, rotated and
//! ended each in one transaction of the adapter.

use crate::repository_error::{PlanError, RepoResult, RepositoryError};
use async_trait::async_trait;
use social_login_domain::refresh::RefreshFamily;
pub use social_login_domain::session::{NewRefreshToken, SessionStart};
pub use social_login_domain::session_list::{SessionEnding, SessionSummary, StoredSession};
pub use social_login_domain::session_plan::{
    Logout, RefreshRotation, Rotated, RotationPlan, RotationRefused, SessionOpening,
};
use social_login_domain::{FamilyId, UserId};
use time::OffsetDateTime;

/// A rotation that wrote nothing: the rule refused it, or the storage failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RotateError {
    #[error(transparent)]
    Refused(#[from] RotationRefused),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl From<crate::PlanError> for RotateError {
    fn from(error: crate::PlanError) -> Self {
        Self::Repository(error.into())
    }
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
    /// Records `user.login`. [`PlanError::Locked`] when an operator locked the user since
    /// the login read it: the lock is read in the same transaction, under a lock that
    /// orders it with the operator's (so the lock either refuses the session or ends it).
    async fn start_family(&self, opening: SessionOpening) -> Result<(), PlanError>;

    /// In one transaction holding the family's lock, judges the presented token with
    /// [`RefreshRotation::plan`] (`domain::refresh::judge`, after the user's lock):
    /// valid → deletes its row (a token of the earlier format, with no proof of its family:
    /// marks it used), stores the successor in the same family for the same user, expiring
    /// `successor_ttl` from `now` but never after the family ends, and returns the user with
    /// the family's `auth_time` (unchanged: a refresh is not a login) and the successor's
    /// expiry; reused (a row marked used, or a proving token whose row is gone while its
    /// family lives) → revokes the family and records `session.refresh_reuse_detected`.
    /// Of concurrent rotations of one token, one wins.
    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError>;

    /// Logout: revokes the family of `logout.presented` and records `session.logout` (once:
    /// a family revoked already records nothing). Unknown tokens are not an error.
    async fn revoke_refresh(&self, logout: Logout) -> RepoResult<()>;

    /// Housekeeping: deletes up to `limit` tokens that expired before `now`, then up to
    /// `limit` families that ended before `now` with their tokens. Returns how many rows
    /// went; the caller repeats while it is `limit`, so no single statement holds locks long.
    async fn prune_expired(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64>;

    /// The session `id`, revoked or not, while its row is kept.
    async fn find_session(&self, id: FamilyId) -> RepoResult<Option<RefreshFamily>>;

    /// `user`'s live sessions at `now` (`domain::session_list::live_sessions`): newest use
    /// first, at most a hundred.
    async fn list_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<SessionSummary>>;

    /// Ends one of the user's own live sessions, under its family's lock (a rotation in
    /// flight dies with it), recording `session.logout`; false when it is not a live session
    /// of this user: nothing is written.
    async fn end_session(&self, ending: SessionEnding) -> RepoResult<bool>;
}
