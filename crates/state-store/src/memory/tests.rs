//! The in-process store's own facts: expiry on its clock, the bound on entries, and what a
//! full store still does.

use super::*;
use social_login_domain::state::DEFAULT_STATE_TTL;
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

fn id(n: u8) -> StateId {
    StateId::from_bytes([n; 16])
}

fn key(n: u8) -> AttemptKey {
    AttemptKey::from_digest([n; 32])
}

const MINUTE: Duration = Duration::minutes(1);
const WINDOW: Duration = Duration::minutes(15);

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
    clock.advance(DEFAULT_STATE_TTL + MINUTE);
    store
        .spend(id(200), clock.now() + DEFAULT_STATE_TTL)
        .await
        .unwrap();
    assert_eq!(store.len(), 1);
}

#[tokio::test]
async fn a_full_store_refuses_instead_of_forgetting_early() {
    let clock = clock();
    let store = MemoryStateStore::with_capacity(clock.clone(), 2, 2);
    let expires = clock.now() + DEFAULT_STATE_TTL;
    store.spend(id(1), expires).await.unwrap();
    store.spend(id(2), expires).await.unwrap();
    assert!(store.spend(id(3), expires).await.is_err());
    // A replay is still recognised while full.
    assert_eq!(store.spend(id(1), expires).await.unwrap(), Spend::Again);
    clock.advance(DEFAULT_STATE_TTL + MINUTE);
    assert_eq!(
        store
            .spend(id(3), clock.now() + DEFAULT_STATE_TTL)
            .await
            .unwrap(),
        Spend::First
    );
    assert_eq!(store.len(), 1);
}

#[tokio::test]
async fn an_attempt_window_closes_on_the_stores_clock_and_counting_starts_again() {
    let clock = clock();
    let store = MemoryStateStore::new(clock.clone());
    store.count_attempt(key(1), WINDOW).await.unwrap();
    clock.advance(WINDOW - Duration::seconds(1));
    let last = store.count_attempt(key(1), WINDOW).await.unwrap();
    assert_eq!((last.count, last.window_left), (2, Duration::seconds(1)));
    clock.advance(Duration::seconds(1));
    let fresh = store.count_attempt(key(1), WINDOW).await.unwrap();
    assert_eq!((fresh.count, fresh.window_left), (1, WINDOW));
}

#[tokio::test]
async fn attempt_counts_have_a_bound_of_their_own_and_never_crowd_out_spent_ids() {
    let clock = clock();
    let store = MemoryStateStore::with_capacity(clock.clone(), 2, 2);
    store.count_attempt(key(1), WINDOW).await.unwrap();
    store.count_attempt(key(2), WINDOW).await.unwrap();
    assert!(store.count_attempt(key(3), WINDOW).await.is_err());
    // A full attempt table leaves room for spent ids, and the other way round.
    let expires = clock.now() + DEFAULT_STATE_TTL;
    store.spend(id(1), expires).await.unwrap();
    store.spend(id(2), expires).await.unwrap();
    assert!(store.spend(id(3), expires).await.is_err());
    // Keys already counted go on counting while full; a cleared one makes room.
    assert_eq!(store.count_attempt(key(1), WINDOW).await.unwrap().count, 2);
    store.clear_attempts(key(2)).await.unwrap();
    assert_eq!(store.count_attempt(key(3), WINDOW).await.unwrap().count, 1);
    // Closed windows are forgotten, so a full store empties by itself.
    clock.advance(DEFAULT_STATE_TTL.max(WINDOW) + MINUTE);
    assert_eq!(store.count_attempt(key(4), WINDOW).await.unwrap().count, 1);
    assert_eq!(store.len(), 1);
}
