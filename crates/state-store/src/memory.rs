//! The in-process state store: spent ids and attempt counts in expiring maps, each bounded
//! on its own.

mod expiring;

use async_trait::async_trait;
use expiring::Expiring;
use social_login_domain::{Spend, StateId};
use social_login_ports::{AttemptKey, Attempts, Clock, StateStore, StateStoreError, StoreResult};
use std::sync::{Arc, Mutex, MutexGuard};
use time::{Duration, OffsetDateTime};

/// Default bound on the spent ids held (state values and native id_tokens): about 100 bytes
/// an entry, so ~100 MiB at most. Only a callback or connect with a value this service
/// sealed, or a verified native id_token, adds one, all rate-limited per IP; a full store
/// refuses further ones with 503 rather than forget an entry early (which would let a value
/// be replayed).
pub const DEFAULT_MAX_ENTRIES: usize = 1_000_000;

/// Default bound on the attempt counts held, apart from the spent ids so that a flood of
/// password attempts can never make an OAuth callback answer 503. A full table refuses new
/// counts (password logins answer 503) rather than forget one early, which would let a
/// password be guessed past its throttle.
pub const DEFAULT_MAX_ATTEMPT_ENTRIES: usize = 1_000_000;

/// Remembers spent ids and counts attempts in this process. Not shared between processes:
/// with more than one instance a value could be spent once on each, so such deployments
/// need Redis.
pub struct MemoryStateStore {
    clock: Arc<dyn Clock>,
    max_spent: usize,
    max_attempts: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    spent: Expiring<StateId, ()>,
    /// Key → attempts counted in its window; the entry expires when the window closes.
    attempts: Expiring<AttemptKey, u64>,
}

impl Held {
    fn len(&self) -> usize {
        self.spent.len() + self.attempts.len()
    }

    fn forget_expired(&mut self, now: OffsetDateTime) {
        self.spent.forget_expired(now);
        self.attempts.forget_expired(now);
    }
}

impl MemoryStateStore {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self::with_capacity(clock, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_ATTEMPT_ENTRIES)
    }

    /// A store holding at most `max_spent` spent ids and, apart from them, at most
    /// `max_attempts` attempt counts.
    pub fn with_capacity(clock: Arc<dyn Clock>, max_spent: usize, max_attempts: usize) -> Self {
        Self {
            clock,
            max_spent,
            max_attempts,
            held: Mutex::new(Held::default()),
        }
    }

    /// Number of entries held, expired ones included until the next write.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // A poisoned lock only means another thread panicked mid-operation; every operation
    // leaves the maps consistent, so the data is still good to use.
    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The entries under the lock, those that expired by `now` forgotten first: every
    /// operation that adds starts here, so expired entries never count against the bound.
    fn held_at(&self, now: OffsetDateTime) -> MutexGuard<'_, Held> {
        let mut held = self.lock();
        held.forget_expired(now);
        held
    }

    fn full(table: &str) -> StateStoreError {
        StateStoreError::refused(format!("in-process state store is full ({table})"))
    }
}

#[async_trait]
impl StateStore for MemoryStateStore {
    async fn spend(&self, id: StateId, expires_at: OffsetDateTime) -> StoreResult<Spend> {
        let mut held = self.held_at(self.clock.now());
        // Check and insert under one lock: of concurrent spends, exactly one is first. An
        // expired id still held counts as spent: its value is refused by its expiry anyway.
        if held.spent.holds(&id) {
            return Ok(Spend::Again);
        }
        if held.spent.len() >= self.max_spent {
            return Err(Self::full("spent ids"));
        }
        held.spent.insert(id, (), expires_at);
        Ok(Spend::First)
    }

    async fn count_attempt(&self, key: AttemptKey, window: Duration) -> StoreResult<Attempts> {
        let now = self.clock.now();
        let mut held = self.held_at(now);
        let (count, closes_at) = match held.attempts.get(&key, now) {
            Some((count, closes_at)) => (count.saturating_add(1), closes_at),
            None => {
                if !held.attempts.holds(&key) && held.attempts.len() >= self.max_attempts {
                    return Err(Self::full("attempt counts"));
                }
                (1, now + window)
            }
        };
        held.attempts.insert(key, count, closes_at);
        Ok(Attempts {
            count,
            window_left: closes_at - now,
        })
    }

    async fn peek_attempts(&self, key: AttemptKey) -> StoreResult<Attempts> {
        let now = self.clock.now();
        Ok(self
            .lock()
            .attempts
            .get(&key, now)
            .map_or(Attempts::NONE, |(count, closes_at)| Attempts {
                count: *count,
                window_left: closes_at - now,
            }))
    }

    async fn clear_attempts(&self, key: AttemptKey) -> StoreResult<()> {
        self.lock().attempts.remove(&key);
        Ok(())
    }

    async fn ping(&self) -> StoreResult<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
