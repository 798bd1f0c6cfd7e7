//! The key-set cache during a JWKS outage, over real HTTP against the simulator: concurrent
//! verifications share one fetch, a hanging endpoint costs at most one timeout whoever is
//! waiting, cached keys stay usable for a bounded grace after their hour, retries are
//! rate-limited, and verification recovers by itself once the endpoint answers again.
//! The cache's clock is the verifier's, moved by hand.

use crate::support::*;
use serde_json::{Value, json};
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::build_http_client;
use social_login_provider_oidc::{IdTokenClaims, IdTokenVerifier, IssuerPolicy, KeySetCache};
use social_login_simulator::{Endpoint, Fault, Provider, SimulatorHandle, TEST_KEY_A};
use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};
use time::Duration;
use tokio::task::JoinSet;

/// The provider timeout of these tests: short, so a hang costs little real time.
const TIMEOUT: StdDuration = StdDuration::from_millis(1200);

/// Longer than [`TIMEOUT`]: the endpoint "hangs" as far as the client can tell.
const HANG: StdDuration = StdDuration::from_secs(30);

const ISSUER: &str = "https://accounts.google.com";

struct Bench {
    sim: SimulatorHandle,
    clock: Arc<ManualClock>,
    verifier: IdTokenVerifier,
}

async fn bench() -> Bench {
    let sim = simulator(ada()).await;
    let clock = ManualClock::starting_now();
    let keys = KeySetCache::new(
        url::Url::parse(&sim.google().jwks).unwrap(),
        build_http_client(TIMEOUT).unwrap(),
    );
    let verifier = IdTokenVerifier::new(
        Arc::new(keys),
        IssuerPolicy::one_of([ISSUER]),
        CLIENT_ID,
        clock.clone(),
    );
    Bench {
        sim,
        clock,
        verifier,
    }
}

impl Bench {
    /// A valid token for this client, issued at the bench clock's now, signed with key A.
    fn token(&self) -> String {
        self.token_with_kid(TEST_KEY_A.kid)
    }

    fn token_with_kid(&self, kid: &str) -> String {
        let now = self.clock.now().unix_timestamp();
        let claims: Value = json!({
            "iss": ISSUER, "aud": CLIENT_ID, "sub": "1",
            "iat": now, "exp": now + 3600, "nonce": NONCE,
        });
        TEST_KEY_A.sign(kid, &claims)
    }

    async fn verify(&self, token: &str) -> Result<IdTokenClaims, ProviderError> {
        self.verifier
            .verify(&SecretText::new(token), &SecretText::new(NONCE))
            .await
    }

    /// Verifies `count` copies of `token` at once; returns the outcomes and how long the
    /// slowest took.
    async fn verify_concurrently(
        &self,
        token: &str,
        count: usize,
    ) -> (Vec<Result<IdTokenClaims, ProviderError>>, StdDuration) {
        let started = Instant::now();
        let mut tasks = JoinSet::new();
        for _ in 0..count {
            let verifier = self.verifier.clone();
            let token = SecretText::new(token);
            tasks.spawn(async move { verifier.verify(&token, &SecretText::new(NONCE)).await });
        }
        let outcomes = tasks.join_all().await;
        (outcomes, started.elapsed())
    }

    fn jwks_answers(&self, status: u16) {
        self.sim
            .set_fault(Fault::new(Provider::Google, Endpoint::Jwks).status(status));
    }

    fn jwks_hangs(&self) {
        self.sim
            .set_fault(Fault::new(Provider::Google, Endpoint::Jwks).delay(HANG));
    }
}

fn user_info_message(outcome: &Result<IdTokenClaims, ProviderError>) -> &str {
    match outcome {
        Err(ProviderError::UserInfo(message)) => message,
        other => panic!("expected UserInfo, got {other:?}"),
    }
}

#[tokio::test]
async fn twenty_concurrent_sign_ins_with_a_cold_cache_fetch_the_key_set_once() {
    let sim = simulator(ada()).await;
    // A slow key set, so that every sign-in needs it while the first fetch is in flight.
    sim.set_fault(
        Fault::new(Provider::Google, Endpoint::Jwks).delay(StdDuration::from_millis(400)),
    );
    let provider = provider(&sim);
    let mut sign_ins = JoinSet::new();
    for _ in 0..20 {
        let provider = provider.clone();
        sign_ins.spawn(async move { sign_in(&provider).await });
    }
    for outcome in sign_ins.join_all().await {
        outcome.unwrap();
    }
    assert_eq!(jwks_fetches(&sim), 1);
}

#[tokio::test]
async fn within_the_grace_a_hanging_key_endpoint_costs_one_timeout_not_one_per_login() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench.clock.advance(Duration::hours(2));
    bench.jwks_hangs();

    let (outcomes, elapsed) = bench.verify_concurrently(&bench.token(), 10).await;
    for outcome in &outcomes {
        assert!(outcome.is_ok(), "{outcome:?}");
    }
    assert!(
        elapsed < TIMEOUT * 3,
        "10 verifications took {elapsed:?}, timeout {TIMEOUT:?}"
    );

    // The failed refresh is not retried by the next login: it is served at once.
    let started = Instant::now();
    bench.verify(&bench.token()).await.unwrap();
    assert!(started.elapsed() < TIMEOUT / 2, "{:?}", started.elapsed());
}

#[tokio::test]
async fn during_an_outage_the_key_set_is_asked_for_at_most_twice_a_minute() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench.clock.advance(Duration::hours(2));
    bench.jwks_answers(500);

    for _ in 0..5 {
        bench.verify(&bench.token()).await.unwrap();
        bench.clock.advance(Duration::seconds(5));
    }
    assert_eq!(jwks_fetches(&bench.sim), 2, "one fetch, one failed refresh");

    bench.clock.advance(Duration::seconds(5));
    bench.verify(&bench.token()).await.unwrap();
    assert_eq!(
        jwks_fetches(&bench.sim),
        3,
        "30 seconds later, one more attempt"
    );
}

#[tokio::test]
async fn past_the_grace_verifications_fail_with_the_provider_error_in_one_timeout() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    // An hour of freshness plus 24 hours of grace, and a second more.
    bench
        .clock
        .advance(Duration::hours(25) + Duration::seconds(1));
    bench.jwks_hangs();

    let (outcomes, elapsed) = bench.verify_concurrently(&bench.token(), 10).await;
    for outcome in &outcomes {
        assert_eq!(user_info_message(outcome), "JWKS endpoint timed out");
    }
    assert!(
        elapsed < TIMEOUT * 3,
        "10 refusals took {elapsed:?}, timeout {TIMEOUT:?}"
    );
}

#[tokio::test]
async fn a_key_set_past_the_grace_is_not_used_when_the_endpoint_fails() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench
        .clock
        .advance(Duration::hours(25) + Duration::seconds(1));
    bench.jwks_answers(500);
    let outcome = bench.verify(&bench.token()).await;
    assert_eq!(
        user_info_message(&outcome),
        "JWKS endpoint answered HTTP 500"
    );
}

#[tokio::test]
async fn verification_recovers_by_itself_once_the_endpoint_is_back() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench.clock.advance(Duration::hours(26));
    bench.jwks_answers(503);
    assert!(bench.verify(&bench.token()).await.is_err());
    assert_eq!(jwks_fetches(&bench.sim), 2);

    bench.sim.clear_faults();
    bench.clock.advance(Duration::seconds(30));
    let (outcomes, _) = bench.verify_concurrently(&bench.token(), 10).await;
    for outcome in &outcomes {
        assert!(outcome.is_ok(), "{outcome:?}");
    }
    assert_eq!(
        jwks_fetches(&bench.sim),
        3,
        "one fetch brought the keys back"
    );
}

#[tokio::test]
async fn a_cold_cache_during_an_outage_fails_every_waiting_login_in_one_timeout() {
    let bench = bench().await;
    bench.jwks_hangs();
    let (outcomes, elapsed) = bench.verify_concurrently(&bench.token(), 10).await;
    for outcome in &outcomes {
        assert_eq!(user_info_message(outcome), "JWKS endpoint timed out");
    }
    assert!(
        elapsed < TIMEOUT * 3,
        "10 refusals took {elapsed:?}, timeout {TIMEOUT:?}"
    );
}

#[tokio::test]
async fn a_refetch_in_flight_does_not_hold_up_tokens_signed_with_a_known_key() {
    let bench = bench().await;
    bench.verify(&bench.token()).await.unwrap();
    bench.clock.advance(Duration::minutes(2));
    bench.jwks_hangs();

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
    bench.jwks_hangs();
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
