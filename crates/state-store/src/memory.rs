//! The in-process state store: spent state ids in time buckets, bounded in memory.

use async_trait::async_trait;
use social_login_domain::{Spend, StateId};
use social_login_ports::{Clock, StateStore, StateStoreError};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use time::OffsetDateTime;

/// Ids are grouped by the minute their value expires in, so forgetting expired ids is
/// dropping whole buckets (O(1) per bucket), never a scan.
const BUCKET_SECONDS: i64 = 60;

/// Default bound on remembered spent ids: ~24 MiB at most. Only a callback or connect with a
/// value this service sealed adds one, each after an authorize, both rate-limited per IP; a
/// full store refuses further callbacks with 503 rather than forget an id early (which would
/// let a value be replayed).
pub const DEFAULT_MAX_SPENT: usize = 1_000_000;

/// Remembers spent state ids in this process. Not shared between processes: with more than
/// one instance a value could be spent once on each, so such deployments need Redis.
pub struct MemoryStateStore {
    clock: Arc<dyn Clock>,
    max_spent: usize,
    spent: Mutex<SpentIds>,
}

#[derive(Default)]
struct SpentIds {
    /// Bucket number (the end of its minute, in minutes since the epoch) → ids expiring in it.
    buckets: BTreeMap<i64, HashSet<StateId>>,
    len: usize,
}

impl MemoryStateStore {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self::with_capacity(clock, DEFAULT_MAX_SPENT)
    }

    pub fn with_capacity(clock: Arc<dyn Clock>, max_spent: usize) -> Self {
        Self {
            clock,
            max_spent,
            spent: Mutex::new(SpentIds::default()),
        }
    }

    /// Number of ids remembered, expired ones included until the next `spend`.
    pub fn len(&self) -> usize {
        self.lock().len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // A poisoned lock only means another thread panicked mid-operation; every operation
    // leaves the buckets consistent, so the data is still good to use.
    fn lock(&self) -> MutexGuard<'_, SpentIds> {
        self.spent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl SpentIds {
    /// Drops every bucket whose minute has fully passed: all its ids have expired.
    fn forget_expired(&mut self, now: OffsetDateTime) {
        let current = now.unix_timestamp().div_euclid(BUCKET_SECONDS);
        while let Some(entry) = self.buckets.first_entry() {
            if *entry.key() > current {
                break;
            }
            self.len -= entry.remove().len();
        }
    }

    fn contains(&self, id: &StateId) -> bool {
        self.buckets.values().any(|bucket| bucket.contains(id))
    }
}

/// The bucket an id expiring at `expires_at` goes in: the first minute boundary at or after
/// it, so the id is kept at least until its value expires.
fn bucket_of(expires_at: OffsetDateTime) -> i64 {
    let seconds = expires_at.unix_timestamp();
    seconds.div_euclid(BUCKET_SECONDS) + 1
}

#[async_trait]
impl StateStore for MemoryStateStore {
    async fn spend(
        &self,
        id: StateId,
        expires_at: OffsetDateTime,
    ) -> Result<Spend, StateStoreError> {
        let now = self.clock.now();
        let mut spent = self.lock();
        spent.forget_expired(now);
        // Check and insert under one lock: of concurrent spends, exactly one is first.
        if spent.contains(&id) {
            return Ok(Spend::Again);
        }
        if spent.len >= self.max_spent {
            return Err(StateStoreError(
                "in-process state store is full of spent state ids".into(),
            ));
        }
        spent
            .buckets
            .entry(bucket_of(expires_at))
            .or_default()
            .insert(id);
        spent.len += 1;
        Ok(Spend::First)
    }

    async fn ping(&self) -> Result<(), StateStoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_domain::state::DEFAULT_STATE_TTL;
    use std::sync::atomic::{AtomicI64, Ordering};
    use time::Duration;

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

    fn id(n: u8) -> StateId {
        StateId::from_bytes([n; 16])
    }

    #[tokio::test]
    async fn an_id_is_remembered_until_its_value_expires() {
        let clock = clock();
        let store = MemoryStateStore::new(clock.clone());
        let expires = clock.now() + DEFAULT_STATE_TTL;
        store.spend(id(4), expires).await.unwrap();
        clock.advance(DEFAULT_STATE_TTL - Duration::seconds(1));
        assert_eq!(store.spend(id(4), expires).await.unwrap(), Spend::Again);
    }

    #[tokio::test]
    async fn expired_ids_are_forgotten_so_memory_stays_bounded() {
        let clock = clock();
        let store = MemoryStateStore::new(clock.clone());
        for n in 0..10 {
            store
                .spend(id(n), clock.now() + DEFAULT_STATE_TTL)
                .await
                .unwrap();
        }
        assert_eq!(store.len(), 10);
        clock.advance(DEFAULT_STATE_TTL + Duration::seconds(BUCKET_SECONDS));
        store
            .spend(id(200), clock.now() + DEFAULT_STATE_TTL)
            .await
            .unwrap();
        assert_eq!(store.len(), 1);
    }

    #[tokio::test]
    async fn a_full_store_refuses_instead_of_forgetting_early() {
        let clock = clock();
        let store = MemoryStateStore::with_capacity(clock.clone(), 2);
        let expires = clock.now() + DEFAULT_STATE_TTL;
        store.spend(id(1), expires).await.unwrap();
        store.spend(id(2), expires).await.unwrap();
        assert!(store.spend(id(3), expires).await.is_err());
        // A replay is still recognised while full.
        assert_eq!(store.spend(id(1), expires).await.unwrap(), Spend::Again);
        clock.advance(DEFAULT_STATE_TTL + Duration::seconds(BUCKET_SECONDS));
        assert_eq!(
            store
                .spend(id(3), clock.now() + DEFAULT_STATE_TTL)
                .await
                .unwrap(),
            Spend::First
        );
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn an_id_goes_in_a_bucket_that_ends_after_its_expiry() {
        for seconds in [0, 1, 59, 60, 61, 1_800_000_000] {
            let at = OffsetDateTime::from_unix_timestamp(seconds).unwrap();
            assert!(bucket_of(at) * BUCKET_SECONDS > seconds, "{seconds}");
        }
    }
}
