//! The password hasher port.

use async_trait::async_trait;
use social_login_domain::{PasswordHash, SecretText};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// Every hashing slot stayed taken for as long as a caller may wait: the service is
    /// overloaded, and the client should retry later.
    #[error("password hashing is at capacity")]
    Busy,
    #[error("password hashing failed: {0}")]
    Failed(String),
}

/// Slow, salted password hashing. Implementations run the work off the async threads and
/// bound how many hashes run at once (each costs memory and a CPU), answering
/// [`HashError::Busy`] rather than queueing without end.
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
