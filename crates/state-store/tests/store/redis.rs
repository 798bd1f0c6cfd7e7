//! `RedisStateStore` against a real Redis (`TEST_REDIS_URL`): atomic single use across
//! connections, attempts counted across them, keys under the prefix with a TTL, expiry, and
//! an outage that heals itself.

use social_login_domain::{Spend, StateId};
use social_login_ports::{AttemptKey, Clock, StateStore, SystemClock};
use social_login_state_store::{RedisStateStore, RedisStateStoreConfig};
use social_login_test_support::{FaultProxy, redis_url};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

fn store(url: &str, prefix: &str) -> RedisStateStore {
    RedisStateStore::new(
        RedisStateStoreConfig {
            url: url.to_owned(),
            key_prefix: prefix.to_owned(),
            timeout: Duration::from_secs(2),
        },
        Arc::new(SystemClock),
    )
    .expect("a valid URL")
}

/// A prefix of this test's own, so tests running at once never see each other's keys.
fn prefix() -> String {
    format!("test:{}:", uuid::Uuid::new_v4().simple())
}

/// A store under a prefix of its own on the test Redis (none without one), with the URL and
/// prefix for looking at the keys it writes.
fn store_of_its_own() -> Option<(String, String, RedisStateStore)> {
    let url = redis_url()?;
    let prefix = prefix();
    let store = store(&url, &prefix);
    Some((url, prefix, store))
}

fn random_bytes() -> [u8; 16] {
    uuid::Uuid::new_v4().into_bytes()
}

fn in_ten_minutes() -> OffsetDateTime {
    SystemClock.now() + time::Duration::minutes(10)
}

/// A raw connection for looking at what the adapter wrote.
async fn raw(url: &str) -> redis::aio::MultiplexedConnection {
    redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

/// How long `key` has left to live, in milliseconds (negative: no expiry or no key).
async fn pttl(connection: &mut redis::aio::MultiplexedConnection, key: &str) -> i64 {
    redis::cmd("PTTL")
        .arg(key)
        .query_async(connection)
        .await
        .unwrap()
}

/// Checks that `expected` is the one key under `prefix` and that it lives for `ttl_ms`.
async fn assert_only_key(url: &str, prefix: &str, expected: String, ttl_ms: RangeInclusive<i64>) {
    let mut connection = raw(url).await;
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(keys, [expected]);
    let ttl = pttl(&mut connection, &keys[0]).await;
    assert!(ttl_ms.contains(&ttl), "{ttl} ms");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_concurrent_spends_on_separate_connections_exactly_one_is_first() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    // Twenty stores: twenty connections, as twenty instances would have.
    let stores: Vec<_> = (0..20).map(|_| store(&url, &prefix)).collect();
    let id = StateId::from_bytes(random_bytes());
    let spends: Vec<_> = stores
        .into_iter()
        .map(|store| tokio::spawn(async move { store.spend(id, in_ten_minutes()).await }))
        .collect();
    let mut firsts = 0;
    for spend in spends {
        firsts += usize::from(spend.await.unwrap() == Ok(Spend::First));
    }
    assert_eq!(firsts, 1);
}

#[tokio::test]
async fn every_key_is_under_the_prefix_and_expires_a_minute_after_its_value() {
    let Some((url, prefix, store)) = store_of_its_own() else {
        return;
    };
    let id = StateId::from_bytes(random_bytes());
    store.spend(id, in_ten_minutes()).await.unwrap();
    let spent = format!("{prefix}state:spent:{}", id.to_hex());
    // Ten minutes, and the margin for instances whose clocks run behind.
    assert_only_key(&url, &prefix, spent, 650_000..=660_000).await;
}

#[tokio::test]
async fn a_spent_id_outlives_its_value_by_a_minute_on_every_instance() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    // Two instances on one Redis. Another instance whose clock runs behind still takes the
    // value after it expired by ours: the id must still be spent for it.
    let (first, other) = (store(&url, &prefix), store(&url, &prefix));
    let id = StateId::from_bytes(random_bytes());
    let soon = SystemClock.now() + time::Duration::milliseconds(300);
    assert_eq!(first.spend(id, soon).await, Ok(Spend::First));
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(other.spend(id, soon).await, Ok(Spend::Again));
    // Remembered for the margin past the value, not forever.
    let mut connection = raw(&url).await;
    let key = format!("{prefix}state:spent:{}", id.to_hex());
    let ttl = pttl(&mut connection, &key).await;
    assert!((55_000..=60_300).contains(&ttl), "{ttl} ms");
}

#[tokio::test]
async fn an_outage_is_an_error_and_the_store_recovers_by_itself() {
    let Some(url) = redis_url() else { return };
    let proxy = FaultProxy::in_front_of(&url)
        .await
        .expect("the proxy starts");
    let store = store(&proxy.route(&url), &prefix());
    assert_eq!(store.ping().await, Ok(()));

    proxy.cut();
    let started = std::time::Instant::now();
    assert!(store.ping().await.is_err());
    assert!(
        store
            .spend(StateId::from_bytes(random_bytes()), in_ten_minutes())
            .await
            .is_err()
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "failures are fast: {:?}",
        started.elapsed()
    );

    proxy.restore();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while store.ping().await.is_err() {
        assert!(std::time::Instant::now() < deadline, "no recovery in 10 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let id = StateId::from_bytes(random_bytes());
    assert_eq!(store.spend(id, in_ten_minutes()).await, Ok(Spend::First));
}

/// The window the attempt tests count in.
const WINDOW: time::Duration = time::Duration::minutes(15);

fn attempt_key() -> AttemptKey {
    let mut digest = [0; 32];
    digest[..16].copy_from_slice(&random_bytes());
    AttemptKey::from_digest(digest)
}

#[tokio::test]
async fn attempts_counted_by_one_instance_count_on_another() {
    let Some(url) = redis_url() else { return };
    let prefix = prefix();
    let (a, b) = (store(&url, &prefix), store(&url, &prefix));
    let key = attempt_key();
    assert_eq!(a.count_attempt(key, WINDOW).await.unwrap().count, 1);
    assert_eq!(b.count_attempt(key, WINDOW).await.unwrap().count, 2);
    b.clear_attempts(key).await.unwrap();
    assert_eq!(a.count_attempt(key, WINDOW).await.unwrap().count, 1);
}

#[tokio::test]
async fn an_attempt_count_is_one_key_under_the_prefix_that_expires_with_its_window() {
    let Some((url, prefix, store)) = store_of_its_own() else {
        return;
    };
    let key = attempt_key();
    store.count_attempt(key, WINDOW).await.unwrap();
    let count = format!("{prefix}attempts:{}", key.to_hex());
    assert_only_key(&url, &prefix, count, 890_000..=900_000).await;
}

#[tokio::test]
async fn a_count_left_without_expiry_gets_one_at_the_next_attempt() {
    let Some((url, prefix, store)) = store_of_its_own() else {
        return;
    };
    let key = attempt_key();
    // As a crash between INCR and PEXPIRE would leave it, were they two commands.
    let mut connection = raw(&url).await;
    let stored = format!("{prefix}attempts:{}", key.to_hex());
    let _: () = redis::cmd("SET")
        .arg(&stored)
        .arg(7)
        .query_async(&mut connection)
        .await
        .unwrap();
    let attempts = store.count_attempt(key, WINDOW).await.unwrap();
    assert_eq!(attempts.count, 8);
    assert_eq!(attempts.window_left, WINDOW);
    let ttl = pttl(&mut connection, &stored).await;
    assert!(ttl > 0, "{ttl}");
}

#[test]
fn a_malformed_url_is_refused_without_echoing_it() {
    let error = RedisStateStore::new(
        RedisStateStoreConfig {
            url: "http://user:hunter2@nowhere".into(),
            key_prefix: "p:".into(),
            timeout: Duration::from_secs(1),
        },
        Arc::new(SystemClock),
    )
    .err()
    .expect("refused");
    assert!(!error.to_string().contains("hunter2"));
}

/// The state store contract of `social-login-testing` on Redis, each rule under a key
/// prefix of its own.
mod contract {
    use super::*;
    use social_login_testing::contract::state_store::Rule;

    async fn on_redis(rule: Rule) {
        let Some(url) = redis_url() else { return };
        rule(Arc::new(store(&url, &prefix()))).await;
    }

    social_login_testing::state_store_contract!(on_redis);
}
