//! The state store port's contract: single use by one atomic step, under any concurrency.

use social_login_domain::{Spend, StateId};
use social_login_ports::StateStore;
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

pub async fn a_reachable_store_answers_ping(store: Arc<dyn StateStore>) {
    assert_eq!(store.ping().await, Ok(()));
}

/// One `#[tokio::test]` per rule of the state store contract; `$harness` is an async
/// function taking a [`Rule`] and running it on a fresh store.
#[macro_export]
macro_rules! state_store_contract {
    ($harness:path) => {
        $crate::state_store_contract!(@rules $harness;
            an_id_is_spent_once,
            ids_are_spent_independently,
            of_twenty_concurrent_spends_exactly_one_is_first,
            a_reachable_store_answers_ping,
        );
    };
    (@rules $harness:path; $($rule:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $rule() {
                fn rule(
                    store: ::std::sync::Arc<dyn ::social_login_ports::StateStore>,
                ) -> ::std::pin::Pin<::std::boxed::Box<dyn ::std::future::Future<Output = ()> + Send>>
                {
                    ::std::boxed::Box::pin($crate::contract::state_store::$rule(store))
                }
                $harness(rule).await;
            }
        )*
    };
}
