//! The key-set cache over real HTTP: fetched once per process, refetched on an unknown
//! `kid` at most once a minute, and again after an hour. The clock is moved by hand.

use crate::support::*;
use social_login_simulator::{IdTokenFault, Provider};
use time::Duration;

#[tokio::test]
async fn two_sign_ins_through_two_adapter_instances_fetch_the_key_set_once() {
    let sim = simulator(ada()).await;
    let first = provider(&sim);
    let second = provider(&sim);
    sign_in(&first).await.unwrap();
    sign_in(&second).await.unwrap();
    sign_in(&first).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 1);
}

#[tokio::test]
async fn an_unknown_kid_refetches_once_and_not_again_within_the_minute() {
    let sim = simulator(ada()).await;
    let clock = ManualClock::starting_now();
    let provider = provider_with(settings(&sim), clock.clone());
    sign_in(&provider).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 1);

    sim.set_id_token_fault(Provider::Google, IdTokenFault::UnknownKid);
    clock.advance(Duration::minutes(2));
    assert_user_info(sign_in(&provider).await);
    assert_eq!(jwks_fetches(&sim), 2, "the unknown kid caused one refetch");

    clock.advance(Duration::seconds(30));
    assert_user_info(sign_in(&provider).await);
    assert_eq!(jwks_fetches(&sim), 2, "no second refetch within the minute");

    clock.advance(Duration::seconds(31));
    assert_user_info(sign_in(&provider).await);
    assert_eq!(
        jwks_fetches(&sim),
        3,
        "a minute later the limit allows one more"
    );
}

#[tokio::test]
async fn a_rotated_signing_key_is_picked_up_by_one_refetch() {
    let sim = simulator(ada()).await;
    let clock = ManualClock::starting_now();
    let provider = provider_with(settings(&sim), clock.clone());
    sign_in(&provider).await.unwrap();

    sim.rotate_signing_key();
    clock.advance(Duration::minutes(5));
    sign_in(&provider).await.unwrap();
    sign_in(&provider).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 2);
}

#[tokio::test]
async fn a_rotation_right_after_a_fetch_waits_for_the_refetch_limit() {
    let sim = simulator(ada()).await;
    let clock = ManualClock::starting_now();
    let provider = provider_with(settings(&sim), clock.clone());
    sign_in(&provider).await.unwrap();

    sim.rotate_signing_key();
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "id_token key id is not in the provider's key set");
    clock.advance(Duration::minutes(1));
    sign_in(&provider).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 2);
}

#[tokio::test]
async fn the_key_set_is_fetched_again_after_an_hour() {
    let sim = simulator(ada()).await;
    let clock = ManualClock::starting_now();
    let provider = provider_with(settings(&sim), clock.clone());
    sign_in(&provider).await.unwrap();
    clock.advance(Duration::minutes(59));
    sign_in(&provider).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 1, "still fresh after 59 minutes");
    clock.advance(Duration::minutes(1));
    sign_in(&provider).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 2, "stale after an hour");
}
