//! The password hasher port.

use async_trait::async_trait;
use social_login_domain::{PasswordHash, SecretText};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(pub String);

/// Slow, salted password hashing. Implementations run the work off the async threads.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait PasswordHasher: Send + Sync {
    async fn hash(&self, password: SecretText) -> Result<PasswordHash, HashError>;

    /// Checks `password` against `hash`. With `None` it spends the same time on a dummy
    /// hash and returns false, so a login for an unknown email is not faster than one for
    /// a known email (no account enumeration by timing).
    async fn verify(
        &self,
        password: SecretText,
        hash: Option<PasswordHash>,
    ) -> Result<bool, HashError>;
}
