//! The key-set cache over real HTTP: one fetch for many verifications, a refetch on an
//! unknown `kid` (once per token from the token endpoint, at most once per 10 s for a
//! presented one), a new fetch after an hour; and during a JWKS outage
//! a hanging endpoint costs at most one timeout whoever is waiting, cached keys stay usable
//! for a bounded grace after their hour, retries are rate-limited, and verification
//! recovers by itself once the endpoint answers again. The clock is moved by hand.

use crate::bench::*;
use social_login_domain::SecretText;
use social_login_simulator::{TEST_KEY_A, TEST_KEY_B};
use std::time::{Duration as StdDuration, Instant};
use time::Duration;

/// An hour of freshness plus 24 hours of grace, and a second more.
fn past_the_grace() -> Duration {
    Duration::hours(25) + Duration::seconds(1)
}

/// The provider moves to key B; `claims` signed with it.
fn rotate_and_sign(bench: &Bench, claims: &serde_json::Value) -> String {
    bench.sim.rotate_signing_key();
    TEST_KEY_B.sign(TEST_KEY_B.kid, claims)
}

#[tokio::test]
async fn twenty_concurrent_verifications_with_a_cold_cache_fetch_the_key_set_once() {
    let bench = bench().await;
    // A slow key set, so that every verification needs it while the first fetch is in flight.
    bench.jwks_delays(StdDuration::from_millis(400));
    for outcome in bench.at_once(&bench.token(), 20).await {
        outcome.unwrap();
    }
    assert_eq!(bench.jwks_fetches(), 1);
}

#[tokio::test]
async fn an_unknown_kid_from_the_token_endpoint_refetches_once_per_token_however_recent_the_set() {
    let bench = warm_bench(Duration::seconds(1)).await;
    assert_eq!(bench.jwks_fetches(), 1);
    let unknown = bench.token_with_kid("sim-key-unknown");
    let refused = "id_token key id is not in the provider's key set";
    for fetches in [2, 3] {
        assert_eq!(bench.refusal(&unknown).await, refused);
        assert_eq!(bench.jwks_fetches(), fetches, "one refetch per token");
    }
}

#[tokio::test]
async fn an_unknown_kid_in_a_presented_token_refetches_at_most_once_per_10_seconds() {
    let bench = warm_bench(Duration::minutes(2)).await;
    let unknown = TEST_KEY_A.sign("sim-key-unknown", &bench.presented_claims());
    let refused = "id_token key id is not in the provider's key set";

    assert_eq!(bench.presented_refusal(&unknown).await, refused);
    assert_eq!(
        bench.jwks_fetches(),
        2,
        "the unknown kid caused one refetch"
    );

    bench.clock.advance(Duration::seconds(9));
    assert_eq!(bench.presented_refusal(&unknown).await, refused);
    assert_eq!(bench.jwks_fetches(), 2, "no second refetch within 10 s");

    bench.clock.advance(Duration::seconds(1));
    assert_eq!(bench.presented_refusal(&unknown).await, refused);
    assert_eq!(
        bench.jwks_fetches(),
        3,
        "10 s later the limit allows one more"
    );
}

#[tokio::test]
async fn a_presented_token_whose_caller_hangs_up_during_the_refetch_still_spends_it() {
    let bench = warm_bench(Duration::minutes(2)).await;
    bench.jwks_delays(HANG);
    let unknown = TEST_KEY_A.sign("sim-key-unknown", &bench.presented_claims());
    let verifier = bench.verifier.clone();
    let hung_up = unknown.clone();
    let abandoned = tokio::spawn(async move {
        verifier
            .verify_presented(&SecretText::new(hung_up), None)
            .await
    });
    tokio::time::sleep(TIMEOUT / 4).await;
    abandoned.abort();
    let _ = abandoned.await;

    // The simulator counts a fetch once it has answered: the abandoned one never was.
    bench.sim.clear_faults();
    let refused = "id_token key id is not in the provider's key set";
    assert_eq!(bench.presented_refusal(&unknown).await, refused);
    assert_eq!(bench.jwks_fetches(), 1, "no second refetch within 10 s");
    bench.clock.advance(Duration::seconds(10));
    assert_eq!(bench.presented_refusal(&unknown).await, refused);
    assert_eq!(bench.jwks_fetches(), 2);
}

/// A code exchange follows a rotation at once, even right after a fetch (it is not held to
/// the 10 s between refetches that presented tokens are), and the one refetch is cached.
#[tokio::test]
async fn a_rotated_signing_key_is_picked_up_by_one_refetch_even_right_after_a_fetch() {
    for since_the_fetch in [Duration::minutes(5), Duration::ZERO] {
        let bench = warm_bench(since_the_fetch).await;
        let rotated = rotate_and_sign(&bench, &bench.claims());
        bench.verify(&rotated).await.unwrap();
        bench.verify(&rotated).await.unwrap();
        assert_eq!(bench.jwks_fetches(), 2, "{since_the_fetch} after the fetch");
    }
}

#[tokio::test]
async fn a_rotation_right_after_a_fetch_reaches_presented_tokens_within_10_seconds() {
    let bench = warm_bench(Duration::ZERO).await;
    let rotated = rotate_and_sign(&bench, &bench.presented_claims());
    assert_eq!(
        bench.presented_refusal(&rotated).await,
        "id_token key id is not in the provider's key set"
    );
    bench.clock.advance(Duration::seconds(10));
    bench.present(&rotated).await.unwrap();
    assert_eq!(bench.jwks_fetches(), 2);
}

#[tokio::test]
async fn the_key_set_is_fetched_again_after_an_hour() {
    let bench = warm_bench(Duration::minutes(59)).await;
    bench.verify(&bench.token()).await.unwrap();
    assert_eq!(bench.jwks_fetches(), 1, "still fresh after 59 minutes");
    bench.clock.advance(Duration::minutes(1));
    bench.verify(&bench.token()).await.unwrap();
    assert_eq!(bench.jwks_fetches(), 2, "stale after an hour");
}

#[tokio::test]
async fn within_the_grace_a_hanging_key_endpoint_costs_one_timeout_not_one_per_login() {
    let bench = warm_bench(Duration::hours(2)).await;
    bench.jwks_delays(HANG);
    for outcome in bench.ten_at_once(&bench.token()).await {
        assert!(outcome.is_ok(), "{outcome:?}");
    }

    // The failed refresh is not retried by the next login: it is served at once.
    let started = Instant::now();
    bench.verify(&bench.token()).await.unwrap();
    assert!(started.elapsed() < TIMEOUT / 2, "{:?}", started.elapsed());
}

#[tokio::test]
async fn during_an_outage_the_key_set_is_asked_for_at_most_twice_a_minute() {
    let bench = warm_bench(Duration::hours(2)).await;
    bench.jwks_answers(500);

    for _ in 0..5 {
        bench.verify(&bench.token()).await.unwrap();
        bench.clock.advance(Duration::seconds(5));
    }
    assert_eq!(bench.jwks_fetches(), 2, "one fetch, one failed refresh");

    bench.clock.advance(Duration::seconds(5));
    bench.verify(&bench.token()).await.unwrap();
    assert_eq!(
        bench.jwks_fetches(),
        3,
        "30 seconds later, one more attempt"
    );
}

#[tokio::test]
async fn past_the_grace_a_failing_endpoint_fails_verification_with_its_error() {
    let bench = warm_bench(past_the_grace()).await;
    bench.jwks_answers(500);
    assert_eq!(
        bench.refusal(&bench.token()).await,
        "JWKS endpoint answered HTTP 500"
    );

    // A hanging one fails every waiting login in one timeout.
    bench.clock.advance(Duration::minutes(1));
    ten_logins_time_out_on_a_hanging_endpoint(&bench).await;
}

#[tokio::test]
async fn a_cold_cache_during_an_outage_fails_every_waiting_login_in_one_timeout() {
    ten_logins_time_out_on_a_hanging_endpoint(&bench().await).await;
}

/// With the key set endpoint hanging, ten logins at once each fail with its timeout.
async fn ten_logins_time_out_on_a_hanging_endpoint(bench: &Bench) {
    bench.jwks_delays(HANG);
    let token = bench.token();
    for outcome in bench.ten_at_once(&token).await {
        assert_eq!(refusal_message(&outcome, &token), "JWKS endpoint timed out");
    }
}

#[tokio::test]
async fn verification_recovers_by_itself_once_the_endpoint_is_back() {
    let bench = warm_bench(Duration::hours(26)).await;
    bench.jwks_answers(503);
    assert!(bench.verify(&bench.token()).await.is_err());
    assert_eq!(bench.jwks_fetches(), 2);

    bench.sim.clear_faults();
    bench.clock.advance(Duration::seconds(30));
    for outcome in bench.ten_at_once(&bench.token()).await {
        assert!(outcome.is_ok(), "{outcome:?}");
    }
    assert_eq!(bench.jwks_fetches(), 3, "one fetch brought the keys back");
}

#[tokio::test]
async fn a_refetch_in_flight_does_not_hold_up_tokens_signed_with_a_known_key() {
    let bench = warm_bench(Duration::minutes(2)).await;
    bench.jwks_delays(HANG);

    // A token under a key id nobody published: it refetches, and the refetch hangs.
    let unknown = bench.token_with_kid("sim-key-unknown");
    let verifier = bench.verifier.clone();
    let refetch = tokio::spawn(async move {
        verifier
            .verify(&SecretText::new(unknown), &SecretText::new(NONCE))
            .await
    });
    tokio::time::sleep(TIMEOUT / 4).await;

    let started = Instant::now();
    bench.verify(&bench.token()).await.unwrap();
    assert!(
        started.elapsed() < TIMEOUT / 2,
        "a known key waited {:?} for an unrelated refetch",
        started.elapsed()
    );
    assert!(refetch.await.unwrap().is_err());
}

#[tokio::test]
async fn a_login_that_gives_up_during_the_fetch_leaves_it_to_the_next_one() {
    let bench = bench().await;
    bench.jwks_delays(HANG);
    let verifier = bench.verifier.clone();
    let token = bench.token();
    let abandoned = tokio::spawn(async move {
        verifier
            .verify(&SecretText::new(token), &SecretText::new(NONCE))
            .await
    });
    tokio::time::sleep(TIMEOUT / 4).await;
    abandoned.abort();
    let _ = abandoned.await;

    // No attempt was recorded, so the next login fetches at once rather than waiting out
    // a retry interval, and it is not refused by an outage nobody saw.
    bench.sim.clear_faults();
    bench.verify(&bench.token()).await.unwrap();
}
