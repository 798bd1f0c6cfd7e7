//! Wrong keys at the operator API (and at any endpoint that takes a service key): counted
//! per client in the state store, so the limit holds across instances; past
//! `KEY_FAILURES` in a minute the client's key-bearing requests answer 429 before its key
//! is looked at; a wrong key whose own count passes the limit answers 429 too (wrong keys
//! sent at once all pass the look before any is counted). A right key is never counted.
//! While no state store answers at all, nothing is counted and keys are still checked:
//! support must be able to lock a user during that outage too, and a key of `gen-admin-key`'s
//! 256 bits cannot be guessed at any rate.

use crate::{AppError, AppResult, AuthService};
use sha2::{Digest, Sha256};
use social_login_domain::Origin;
use social_login_domain::throttle::{
    KEY_FAILURE_WINDOW, client_network, keys_refused, wrong_key_refused,
};
use social_login_ports::{AttemptKey, Attempts, StoreResult};
use tracing::warn;

impl AuthService {
    /// A key (the operator's, a relay backend's) checked under the throttle: 429 before
    /// `check` looks at it once this client presented too many wrong ones; a wrong or missing
    /// one is counted. `None` when `check` finds no configured key in the request.
    pub async fn checked_key<T>(
        &self,
        origin: &Origin,
        check: impl FnOnce() -> Option<T>,
    ) -> AppResult<Option<T>> {
        self.admit_key_attempt(origin).await?;
        let found = check();
        if found.is_none() {
            self.key_attempt_failed(origin).await?;
        }
        Ok(found)
    }

    /// Before a key is checked: 429, with the time left in the window, once this client
    /// presented `KEY_FAILURES` wrong keys in it.
    async fn admit_key_attempt(&self, origin: &Origin) -> AppResult<()> {
        let peeked = self.ports.states.peek_attempts(self.key_of(origin)).await;
        let Some(failures) = unless_unreachable(peeked)? else {
            return Ok(());
        };
        if keys_refused(failures.count) {
            return Err(key_refusal(failures));
        }
        Ok(())
    }

    /// After a wrong (or missing) key: the client's count rises, and a wrong key past the
    /// limit is refused by its own count (one of a burst that all passed the admission).
    async fn key_attempt_failed(&self, origin: &Origin) -> AppResult<()> {
        let key = self.key_of(origin);
        let counted = self
            .ports
            .states
            .count_attempt(key, KEY_FAILURE_WINDOW)
            .await;
        let Some(counted) = unless_unreachable(counted)? else {
            return Ok(());
        };
        if wrong_key_refused(counted.count) {
            return Err(key_refusal(counted));
        }
        Ok(())
    }

    /// A labelled SHA-256 of the client's network: the store holds no address.
    fn key_of(&self, origin: &Origin) -> AttemptKey {
        let network = origin
            .ip
            .map(|ip| client_network(ip, self.policy.ipv6_prefix).to_string())
            .unwrap_or_default();
        let digest = Sha256::new()
            .chain_update(b"social-login wrong keys per client\0")
            .chain_update(network.as_bytes())
            .finalize();
        AttemptKey::from_digest(digest.into())
    }
}

/// The count read or written; `None`, with a warning, while no state store answers. One
/// that answers but cannot count (the in-process one, full) is 503: filling it must not
/// switch the throttle off.
fn unless_unreachable(result: StoreResult<Attempts>) -> AppResult<Option<Attempts>> {
    match result {
        Ok(attempts) => Ok(Some(attempts)),
        Err(error) if error.unreachable => {
            warn!(%error, "wrong keys go uncounted: the state store is unreachable");
            Ok(None)
        }
        Err(error) => Err(error.into()),
    }
}

/// 429 with the time left in the client's window.
fn key_refusal(failures: Attempts) -> AppError {
    metrics::counter!("social_login_key_attempts_throttled_total").increment(1);
    let seconds = failures.window_left.whole_seconds().max(1);
    AppError::RateLimited {
        retry_after_seconds: u64::try_from(seconds).unwrap_or(1),
    }
}
