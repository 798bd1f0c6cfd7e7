//! The session tokens port: the service's own access and refresh tokens.

use social_login_domain::refresh::{PresentedRefresh, RefreshIssue, RefreshTokenHash};
use social_login_domain::{FamilyId, SecretText, UserId};
use time::{Duration, OffsetDateTime};

/// A signed, short-lived access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessToken {
    pub value: SecretText,
    pub expires_at: OffsetDateTime,
}

/// The random part of a fresh refresh token: only its hash is stored. The client gets
/// [`SessionTokens::refresh_value`] once the token's family and expiry are settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedRefreshToken {
    pub secret: SecretText,
    pub hash: RefreshTokenHash,
}

/// What a valid access token says: whose it is, when it was issued, and when the login of
/// its session happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedAccess {
    pub user: UserId,
    pub issued_at: OffsetDateTime,
    /// The `auth_time` claim; `None` for a token issued before tokens carried it (such a
    /// token is valid, but its login never counts as recent).
    pub auth_time: Option<OffsetDateTime>,
    /// The session (refresh-token family) it was issued in (`sid`); `None` for a token
    /// issued before tokens carried it.
    pub session: Option<FamilyId>,
}

/// Whom an access token is issued to: `user`, in `session`, whose login happened at
/// `auth_time` (a refresh passes the session's, not the time of issue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessIssue {
    pub user: UserId,
    pub session: FamilyId,
    pub auth_time: OffsetDateTime,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not issue a session token: {0}")]
pub struct SessionTokenError(pub String);

/// Issues and checks session tokens.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait SessionTokens: Send + Sync {
    /// An access token of `issue`'s user issued `now`.
    fn issue_access(
        &self,
        issue: AccessIssue,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError>;

    /// The user of a valid, unexpired access token, when it was issued and when its login
    /// happened; `None` for anything else.
    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<VerifiedAccess>;

    fn new_refresh(&self) -> IssuedRefreshToken;

    /// The refresh token the client gets: `issued`'s secret with `issue` under the
    /// service's MAC.
    fn refresh_value(&self, issued: &IssuedRefreshToken, issue: RefreshIssue) -> SecretText;

    /// A presented refresh token's hash, and what it proves of itself.
    fn read_refresh(&self, presented: &str) -> PresentedRefresh;

    fn refresh_ttl(&self) -> Duration;
}
