//! The state store port's contract: single use by one atomic step, under any concurrency;
//! attempts counted one by one in a window that closes by itself and is never extended.

use social_login_domain::{Spend, StateId};
use social_login_ports::{AttemptKey, Attempts, StateStore};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// One rule of the contract, run on the store it is given.
pub type Rule = fn(Arc<dyn StateStore>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

/// A value that expires ten minutes from the real now, so stores on the wall clock
/// (memory, Redis) and on no clock (the fake) keep it alike.
fn in_ten_minutes() -> OffsetDateTime {
    OffsetDateTime::now_utc() + Duration::minutes(10)
}

fn fresh_id() -> StateId {
    StateId::from_bytes(uuid::Uuid::new_v4().into_bytes())
}

pub async fn an_id_is_spent_once(store: Arc<dyn StateStore>) {
    let id = fresh_id();
    assert_eq!(store.spend(id, in_ten_minutes()).await, Ok(Spend::First));
    assert_eq!(store.spend(id, in_ten_minutes()).await, Ok(Spend::Again));
    assert_eq!(store.spend(id, in_ten_minutes()).await, Ok(Spend::Again));
}

pub async fn ids_are_spent_independently(store: Arc<dyn StateStore>) {
    let (one, other) = (fresh_id(), fresh_id());
    assert_eq!(store.spend(one, in_ten_minutes()).await, Ok(Spend::First));
    assert_eq!(store.spend(other, in_ten_minutes()).await, Ok(Spend::First));
}

pub async fn of_twenty_concurrent_spends_exactly_one_is_first(store: Arc<dyn StateStore>) {
    let id = fresh_id();
    let spends: Vec<_> = (0..20)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.spend(id, in_ten_minutes()).await })
        })
        .collect();
    let mut firsts = 0;
    for spend in spends {
        firsts += usize::from(spend.await.expect("spend task") == Ok(Spend::First));
    }
    assert_eq!(firsts, 1);
}

fn fresh_key() -> AttemptKey {
    let mut digest = [0; 32];
    digest[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    digest[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    AttemptKey::from_digest(digest)
}

const WINDOW: Duration = Duration::minutes(15);

pub async fn attempts_are_counted_one_by_one_within_their_window(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    for expected in 1..=3 {
        let attempts = store.count_attempt(key, WINDOW).await.unwrap();
        assert_eq!(attempts.count, expected);
        assert!(
            attempts.window_left > WINDOW - Duration::minutes(1) && attempts.window_left <= WINDOW,
            "{:?}",
            attempts.window_left
        );
    }
}

pub async fn keys_are_counted_apart(store: Arc<dyn StateStore>) {
    let (one, other) = (fresh_key(), fresh_key());
    store.count_attempt(one, WINDOW).await.unwrap();
    store.count_attempt(one, WINDOW).await.unwrap();
    assert_eq!(store.count_attempt(other, WINDOW).await.unwrap().count, 1);
}

pub async fn a_cleared_key_counts_from_one_again(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    store.count_attempt(key, WINDOW).await.unwrap();
    store.count_attempt(key, WINDOW).await.unwrap();
    assert_eq!(store.clear_attempts(key).await, Ok(()));
    assert_eq!(store.count_attempt(key, WINDOW).await.unwrap().count, 1);
    // Clearing a key nobody counted is no error.
    assert_eq!(store.clear_attempts(fresh_key()).await, Ok(()));
}

pub async fn later_attempts_never_extend_the_window(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    store.count_attempt(key, WINDOW).await.unwrap();
    let later = store.count_attempt(key, Duration::hours(24)).await.unwrap();
    assert_eq!(later.count, 2);
    assert!(later.window_left <= WINDOW, "{:?}", later.window_left);
}

pub async fn a_window_closes_by_itself(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    let short = Duration::milliseconds(300);
    store.count_attempt(key, short).await.unwrap();
    assert_eq!(store.count_attempt(key, short).await.unwrap().count, 2);
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert_eq!(store.count_attempt(key, short).await.unwrap().count, 1);
}

pub async fn peeking_reads_the_open_windows_count_without_counting(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    assert_eq!(
        store.peek_attempts(key).await,
        Ok(Attempts::NONE),
        "nothing counted"
    );
    let short = Duration::milliseconds(300);
    store.count_attempt(key, short).await.unwrap();
    store.count_attempt(key, short).await.unwrap();
    let seen = store.peek_attempts(key).await.unwrap();
    assert_eq!(seen.count, 2);
    assert!(
        seen.window_left > Duration::ZERO && seen.window_left <= short,
        "{:?}",
        seen.window_left
    );
    let again = store.peek_attempts(key).await.unwrap();
    assert_eq!(again.count, 2, "a peek counts nothing");
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert_eq!(
        store.peek_attempts(key).await,
        Ok(Attempts::NONE),
        "the window closed"
    );
}

pub async fn of_twenty_concurrent_attempts_each_gets_its_own_count(store: Arc<dyn StateStore>) {
    let key = fresh_key();
    let attempts: Vec<_> = (0..20)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.count_attempt(key, WINDOW).await })
        })
        .collect();
    let mut counts = Vec::new();
    for attempt in attempts {
        counts.push(attempt.await.expect("attempt task").unwrap().count);
    }
    counts.sort_unstable();
    assert_eq!(counts, (1..=20).collect::<Vec<u64>>());
}

pub async fn a_reachable_store_answers_ping(store: Arc<dyn StateStore>) {
    assert_eq!(store.ping().await, Ok(()));
}

/// One `#[tokio::test]` per rule of the state store contract; `$harness` is an async
/// function taking a [`Rule`] and running it on a fresh store.
#[macro_export]
macro_rules! state_store_contract {
    ($harness:path) => {
        $crate::contract_tests!(state_store, dyn ::social_login_ports::StateStore, $harness;
            an_id_is_spent_once,
            ids_are_spent_independently,
            of_twenty_concurrent_spends_exactly_one_is_first,
            attempts_are_counted_one_by_one_within_their_window,
            keys_are_counted_apart,
            a_cleared_key_counts_from_one_again,
            later_attempts_never_extend_the_window,
            a_window_closes_by_itself,
            peeking_reads_the_open_windows_count_without_counting,
            of_twenty_concurrent_attempts_each_gets_its_own_count,
            a_reachable_store_answers_ping,
        );
    };
}
