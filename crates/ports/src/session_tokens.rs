//! The session tokens port: the service's own access and refresh tokens.

use social_login_domain::{SecretText, UserId, refresh::RefreshTokenHash};
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

/// What a valid access token says: whose it is and when the login issued it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedAccess {
    pub user: UserId,
    pub issued_at: OffsetDateTime,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not issue a session token: {0}")]
pub struct SessionTokenError(pub String);

/// Issues and checks session tokens.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait SessionTokens: Send + Sync {
    fn issue_access(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> Result<AccessToken, SessionTokenError>;

    /// The user of a valid, unexpired access token and when it was issued; `None` for
    /// anything else.
    fn verify_access(&self, token: &str, now: OffsetDateTime) -> Option<VerifiedAccess>;

    fn new_refresh(&self) -> IssuedRefreshToken;

    fn hash_refresh(&self, presented: &str) -> RefreshTokenHash;

    fn refresh_ttl(&self) -> Duration;
}
