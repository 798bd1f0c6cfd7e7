//! The session tokens port: the service's own access and refresh tokens.

use social_login_domain::{FamilyId, SecretText, UserId, refresh::RefreshTokenHash};
use time::{Duration, OffsetDateTime};

/// A signed, short-lived access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessToken {
    pub value: SecretText,
    pub expires_at: OffsetDateTime,
}

/// A fresh opaque refresh token: the value goes to the client, only the hash is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedRefreshToken {
    pub value: SecretText,
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

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not issue a session token: {0}")]
pub struct SessionTokenError(pub String);

/// Issues and checks session tokens.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait SessionTokens: Send + Sync {
    /// An access token of `user` issued `now`, in `session`, whose login happened at
    /// `auth_time` (a refresh passes the session's, not `now`).
    fn issue_access(
        &self,
        user: UserId,
        session: FamilyId,
        auth_time: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError>;

    /// The user of a valid, unexpired access token, when it was issued and when its login
    /// happened; `None` for anything else.
    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<VerifiedAccess>;

    fn new_refresh(&self) -> IssuedRefreshToken;

    fn hash_refresh(&self, presented: &str) -> RefreshTokenHash;

    fn refresh_ttl(&self) -> Duration;
}
