//! An in-memory state sealer and state store (spent ids, attempt counts).

use async_trait::async_trait;
use social_login_domain::link_offer::LinkOffer;
use social_login_domain::{OAuthState, Spend, StateId, StateToken};
use social_login_ports::{
    AttemptKey, Attempts, CipherError, Clock, StateSealer, StateStore, StoreResult, SystemClock,
};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// Hands out numbered opaque values (`fake-state-0000000001`, …: deterministic) and opens
/// only those it handed out, like a real sealer opens only what its key sealed.
#[derive(Default)]
pub struct FakeStateSealer {
    sealed: Mutex<HashMap<String, OAuthState>>,
    links: Mutex<HashMap<String, LinkOffer>>,
}

impl FakeStateSealer {
    /// The state behind a value, for assertions.
    pub fn peek(&self, token: &str) -> Option<OAuthState> {
        self.sealed.lock().unwrap().get(token).cloned()
    }
}

impl StateSealer for FakeStateSealer {
    fn seal(&self, state: &OAuthState) -> Result<StateToken, CipherError> {
        let mut sealed = self.sealed.lock().unwrap();
        let token = StateToken::parse(&format!("fake-state-{:010}", sealed.len() + 1))
            .map_err(|_| CipherError::Seal)?;
        sealed.insert(token.as_str().to_owned(), state.clone());
        Ok(token)
    }

    fn open(&self, token: &StateToken) -> Option<OAuthState> {
        self.peek(token.as_str())
    }

    fn seal_link(&self, offer: &LinkOffer) -> Result<String, CipherError> {
        let mut links = self.links.lock().unwrap();
        let token = format!("fake-link-{:010}", links.len() + 1);
        links.insert(token.clone(), offer.clone());
        Ok(token)
    }

    fn open_link(&self, token: &str) -> Option<LinkOffer> {
        self.links.lock().unwrap().get(token).cloned()
    }
}

/// Spent ids in a set; `spend` is one insert under the lock, as atomic as the real stores.
/// Expiry of spent ids is left to the domain, which the port allows; attempt windows close
/// by the clock it is given (the system clock by default, a `FakeClock` in use-case tests).
pub struct FakeStateStore {
    clock: Arc<dyn Clock>,
    spent: Mutex<HashSet<StateId>>,
    /// Key → (count, end of its window).
    attempts: Mutex<HashMap<AttemptKey, (u64, OffsetDateTime)>>,
}

impl Default for FakeStateStore {
    fn default() -> Self {
        Self::with_clock(Arc::new(SystemClock))
    }
}

impl FakeStateStore {
    pub fn with_clock(clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            spent: Mutex::default(),
            attempts: Mutex::default(),
        }
    }

    pub fn is_spent(&self, id: StateId) -> bool {
        self.spent.lock().unwrap().contains(&id)
    }

    pub fn spent_count(&self) -> usize {
        self.spent.lock().unwrap().len()
    }

    /// Keys with attempts counted in an open window.
    pub fn counted_keys(&self) -> usize {
        let now = self.clock.now();
        let attempts = self.attempts.lock().unwrap();
        attempts.values().filter(|(_, end)| *end > now).count()
    }
}

#[async_trait]
impl StateStore for FakeStateStore {
    async fn spend(&self, id: StateId, _expires_at: OffsetDateTime) -> StoreResult<Spend> {
        Ok(if self.spent.lock().unwrap().insert(id) {
            Spend::First
        } else {
            Spend::Again
        })
    }

    async fn count_attempt(&self, key: AttemptKey, window: Duration) -> StoreResult<Attempts> {
        let now = self.clock.now();
        let mut attempts = self.attempts.lock().unwrap();
        let entry = attempts.entry(key).or_insert((0, now + window));
        if entry.1 <= now {
            *entry = (0, now + window);
        }
        entry.0 += 1;
        Ok(Attempts {
            count: entry.0,
            window_left: entry.1 - now,
        })
    }

    async fn peek_attempts(&self, key: AttemptKey) -> StoreResult<Attempts> {
        let now = self.clock.now();
        let attempts = self.attempts.lock().unwrap();
        Ok(attempts.get(&key).filter(|(_, end)| *end > now).map_or(
            Attempts::NONE,
            |(count, end)| Attempts {
                count: *count,
                window_left: *end - now,
            },
        ))
    }

    async fn clear_attempts(&self, key: AttemptKey) -> StoreResult<()> {
        self.attempts.lock().unwrap().remove(&key);
        Ok(())
    }

    async fn ping(&self) -> StoreResult<()> {
        Ok(())
    }
}
