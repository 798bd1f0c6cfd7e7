//! The in-process state store: a mutex-guarded map with atomic take and bounded memory.

use async_trait::async_trait;
use social_login_domain::{OAuthState, StateToken};
use social_login_ports::{Clock, StateStore, StateStoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use time::{Duration, OffsetDateTime};

/// How often a `put` sweeps out expired values; sweeping is O(n), so it is amortised.
const SWEEP_INTERVAL: Duration = Duration::seconds(30);

/// Default bound on live state values. At ~300 bytes each this is ~30 MiB; the per-IP rate
/// limit on authorize keeps honest traffic far below it.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// Keeps state values in this process. Not shared between processes: a deployment with
/// more than one instance needs a shared store (Redis).
pub struct MemoryStateStore {
    clock: Arc<dyn Clock>,
    max_entries: usize,
    inner: Mutex<Inner>,
}

struct Inner {
    states: HashMap<String, OAuthState>,
    last_sweep: OffsetDateTime,
}

impl MemoryStateStore {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self::with_capacity(clock, DEFAULT_MAX_ENTRIES)
    }

    pub fn with_capacity(clock: Arc<dyn Clock>, max_entries: usize) -> Self {
        let now = clock.now();
        Self {
            clock,
            max_entries,
            inner: Mutex::new(Inner {
                states: HashMap::new(),
                last_sweep: now,
            }),
        }
    }

    /// Number of values held, expired ones included until the next sweep.
    pub fn len(&self) -> usize {
        self.lock().states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // A poisoned lock only means another thread panicked mid-operation; every operation
    // leaves the map consistent, so the data is still good to use.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Inner {
    fn sweep(&mut self, now: OffsetDateTime) {
        self.states.retain(|_, state| !state.is_expired(now));
        self.last_sweep = now;
    }
}

#[async_trait]
impl StateStore for MemoryStateStore {
    async fn put(&self, state: OAuthState) -> Result<(), StateStoreError> {
        let now = self.clock.now();
        let mut inner = self.lock();
        if now - inner.last_sweep >= SWEEP_INTERVAL || inner.states.len() >= self.max_entries {
            inner.sweep(now);
        }
        if inner.states.len() >= self.max_entries {
            return Err(StateStoreError("in-process state store is full".into()));
        }
        inner.states.insert(state.token.as_str().to_owned(), state);
        Ok(())
    }

    async fn take(&self, token: &StateToken) -> Result<Option<OAuthState>, StateStoreError> {
        // One `remove` under the lock: of concurrent takes, exactly one gets the value.
        Ok(self.lock().states.remove(token.as_str()))
    }

    async fn ping(&self) -> Result<(), StateStoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_domain::{ProviderKey, Purpose, SecretText, state::DEFAULT_STATE_TTL};
    use std::sync::atomic::{AtomicI64, Ordering};

    struct StepClock(AtomicI64);

    impl StepClock {
        fn advance(&self, by: Duration) {
            self.0.fetch_add(by.whole_seconds(), Ordering::SeqCst);
        }
    }

    impl Clock for StepClock {
        fn now(&self) -> OffsetDateTime {
            OffsetDateTime::from_unix_timestamp(self.0.load(Ordering::SeqCst)).unwrap()
        }
    }

    fn clock() -> Arc<StepClock> {
        Arc::new(StepClock(AtomicI64::new(1_800_000_000)))
    }

    fn state(n: u8, now: OffsetDateTime) -> OAuthState {
        OAuthState::issue(
            StateToken::parse(&format!("state-value-{n:04}-for-tests")).unwrap(),
            ProviderKey::Github,
            Purpose::Login,
            SecretText::new("v"),
            SecretText::new("n"),
            now,
            DEFAULT_STATE_TTL,
        )
    }

    #[tokio::test]
    async fn a_value_can_be_taken_once() {
        let clock = clock();
        let store = MemoryStateStore::new(clock.clone());
        let value = state(1, clock.now());
        store.put(value.clone()).await.unwrap();
        assert_eq!(store.take(&value.token).await.unwrap(), Some(value.clone()));
        assert_eq!(store.take(&value.token).await.unwrap(), None);
    }

    #[tokio::test]
    async fn of_concurrent_takes_exactly_one_gets_the_value() {
        let clock = clock();
        let store = Arc::new(MemoryStateStore::new(clock.clone()));
        let value = state(2, clock.now());
        store.put(value.clone()).await.unwrap();
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                let store = store.clone();
                let token = value.token.clone();
                tokio::spawn(async move { store.take(&token).await.unwrap() })
            })
            .collect();
        let mut winners = 0;
        for task in tasks {
            winners += usize::from(task.await.unwrap().is_some());
        }
        assert_eq!(winners, 1);
    }

    #[tokio::test]
    async fn expired_values_are_swept_so_memory_stays_bounded() {
        let clock = clock();
        let store = MemoryStateStore::new(clock.clone());
        for n in 0..10 {
            store.put(state(n, clock.now())).await.unwrap();
        }
        clock.advance(DEFAULT_STATE_TTL + Duration::seconds(1));
        store.put(state(200, clock.now())).await.unwrap();
        assert_eq!(store.len(), 1);
    }

    #[tokio::test]
    async fn a_full_store_refuses_new_values_instead_of_growing() {
        let clock = clock();
        let store = MemoryStateStore::with_capacity(clock.clone(), 2);
        store.put(state(1, clock.now())).await.unwrap();
        store.put(state(2, clock.now())).await.unwrap();
        assert!(store.put(state(3, clock.now())).await.is_err());
        clock.advance(DEFAULT_STATE_TTL);
        store.put(state(3, clock.now())).await.unwrap();
        assert_eq!(store.len(), 1);
    }
}
