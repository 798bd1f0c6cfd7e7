//! The state store port: which state values (and native id_tokens) have been spent, and how
//! many password attempts an account had lately.

use async_trait::async_trait;
use social_login_domain::{Spend, StateId};
use std::fmt;
use time::{Duration, OffsetDateTime};

/// The store could not be reached, or it answered but could not do what was asked (full,
/// garbage). Clients see 503.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state store unavailable: {why}")]
pub struct StateStoreError {
    pub why: String,
    /// Nothing answered (a connection refused, dropped or timed out), rather than a store
    /// that answered and refused.
    pub unreachable: bool,
}

impl StateStoreError {
    /// No store answered.
    pub fn unreachable(why: impl Into<String>) -> Self {
        Self {
            why: why.into(),
            unreachable: true,
        }
    }

    /// The store answered, and could not do it (full, or an answer it should not give).
    pub fn refused(why: impl Into<String>) -> Self {
        Self {
            why: why.into(),
            unreachable: false,
        }
    }
}

/// What a state store answers: its value, or that it is unavailable.
pub type StoreResult<T> = Result<T, StateStoreError>;

/// What attempts are counted under: a digest the caller makes of what it throttles (the
/// normalised email of a password login, with the client's network or alone), so the store
/// never holds the email itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttemptKey([u8; 32]);

impl AttemptKey {
    pub fn from_digest(digest: [u8; 32]) -> Self {
        Self(digest)
    }

    /// 64 lowercase hex characters, e.g. for a store key.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|byte| format!("{byte:02x}")).collect()
    }
}

impl fmt::Debug for AttemptKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AttemptKey({}…)", &self.to_hex()[..8])
    }
}

/// The attempts of one key in its current window, this one included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempts {
    /// 1 for the attempt that opened the window.
    pub count: u64,
    /// Time left until the window closes and the count starts again from nothing.
    pub window_left: Duration,
}

impl Attempts {
    /// No window open.
    pub const NONE: Attempts = Attempts {
        count: 0,
        window_left: Duration::ZERO,
    };
}

/// Remembers the ids of spent state values until they expire, and counts attempts.
///
/// Issuing a state value writes nothing (the value is sealed, see [`crate::StateSealer`]), so
/// no number of authorize requests can fill this store. `spend` must be one atomic
/// insert-if-absent (a map insert under a lock, Redis `SET NX PX`), never a read followed by
/// a write: of any number of concurrent spends of one id, across every instance, exactly one
/// gets [`Spend::First`]. That is what makes a state value single-use (docs/api.md#state-values), and
/// a native id_token too (its id is derived from the token).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StateStore: Send + Sync {
    /// Records `id` as spent and keeps it at least until `expires_at`, after which the
    /// domain refuses the value by its expiry anyway.
    async fn spend(&self, id: StateId, expires_at: OffsetDateTime) -> StoreResult<Spend>;

    /// Counts one attempt under `key` and answers the count of its window. The window opens
    /// at the first attempt and closes `window` later whatever happens meanwhile (later
    /// attempts never extend it), so nothing counted outlives it. One atomic step: of `n`
    /// concurrent attempts on any number of instances, each gets a different count.
    async fn count_attempt(&self, key: AttemptKey, window: Duration) -> StoreResult<Attempts>;

    /// The attempts counted under `key` in its open window and the time it has left,
    /// without counting one: a count of 0 (and no time left) when none is open.
    async fn peek_attempts(&self, key: AttemptKey) -> StoreResult<Attempts>;

    /// Forgets the attempts counted under `key` (a successful login).
    async fn clear_attempts(&self, key: AttemptKey) -> StoreResult<()>;

    /// Cheap reachability check for `/readyz`.
    async fn ping(&self) -> StoreResult<()>;
}
