//! The per-account throttle of password logins (docs/decisions.md): at most
//! [`MAX_LOGIN_ATTEMPTS`] attempts per email in a window of [`LOGIN_ATTEMPT_WINDOW`] that
//! opens at the first one; past them, 429 until the window closes, the right password
//! included, without running the hasher. A success clears the count.
//!
//! Counted in the state store, so it holds across instances. Unknown emails count exactly
//! like known ones (the answer never tells which exists), and a window never outlives its
//! 15 minutes, so no one can lock an account for longer than that at a time.

use crate::{AppError, AuthService};
use sha2::{Digest, Sha256};
use social_login_domain::Email;
use social_login_ports::AttemptKey;
use time::Duration;

/// Attempts allowed per email and window.
pub const MAX_LOGIN_ATTEMPTS: u64 = 5;
/// How long a window lasts from its first attempt.
pub const LOGIN_ATTEMPT_WINDOW: Duration = Duration::minutes(15);

impl AuthService {
    /// Counts a login attempt for `email` before any look-up or hashing: the count is taken
    /// first, in one atomic step, so concurrent guesses cannot all slip in before it rises.
    /// Past the limit it is 429 with the time left in the window.
    pub(crate) async fn count_login_attempt(&self, email: &str) -> Result<AttemptKey, AppError> {
        let key = attempt_key(email);
        let attempts = self
            .ports
            .states
            .count_attempt(key, LOGIN_ATTEMPT_WINDOW)
            .await?;
        if attempts.count > MAX_LOGIN_ATTEMPTS {
            return Err(AppError::RateLimited {
                retry_after_seconds: whole_seconds_up(attempts.window_left),
            });
        }
        Ok(key)
    }

    /// After a successful login: the account's count starts again from nothing.
    pub(crate) async fn clear_login_attempts(&self, key: AttemptKey) -> Result<(), AppError> {
        Ok(self.ports.states.clear_attempts(key).await?)
    }
}

/// The count's key: a labelled SHA-256 of the normalised email, so the store holds no email.
/// Text that is no email at all counts under its trimmed, lowercased self, like the
/// normalisation of one that is.
fn attempt_key(email: &str) -> AttemptKey {
    let normalized = match Email::parse(email) {
        Ok(email) => email.normalized(),
        Err(_) => email.trim().to_lowercase(),
    };
    let digest = Sha256::new()
        .chain_update(b"social-login password login\0")
        .chain_update(normalized.as_bytes())
        .finalize();
    AttemptKey::from_digest(digest.into())
}

/// `Retry-After` in whole seconds, rounded up, at least 1.
fn whole_seconds_up(left: Duration) -> u64 {
    let millis = u64::try_from(left.whole_milliseconds()).unwrap_or(0);
    millis.div_ceil(1000).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_same_for_every_spelling_of_one_email() {
        assert_eq!(
            attempt_key("Ada@Example.com"),
            attempt_key(" ada@example.COM ")
        );
        assert_ne!(
            attempt_key("ada@example.com"),
            attempt_key("bob@example.com")
        );
        assert_eq!(attempt_key("Not An Email"), attempt_key("not an email"));
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(whole_seconds_up(Duration::milliseconds(1)), 1);
        assert_eq!(whole_seconds_up(Duration::seconds(0)), 1);
        assert_eq!(whole_seconds_up(Duration::milliseconds(60_001)), 61);
        assert_eq!(whole_seconds_up(LOGIN_ATTEMPT_WINDOW), 900);
    }
}
