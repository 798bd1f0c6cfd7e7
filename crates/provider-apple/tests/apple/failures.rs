//! Failures of the code exchange (`CodeExchange`) and of the key set (`UserInfo`).

use crate::support::*;
use social_login_simulator::{Endpoint, Fault, Provider};
use std::time::Duration;

const OTHER_VERIFIER: &str = "another-verifier-0123456789-0123456789-012345";

#[tokio::test]
async fn a_replayed_code_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let form = authorize(&sim, &provider, NONCE).await;
    let code = form.field("code").unwrap();
    assert!(
        complete(&provider, code, VERIFIER, NONCE, None)
            .await
            .is_ok()
    );
    let message = assert_code_exchange(complete(&provider, code, VERIFIER, NONCE, None).await);
    assert!(message.contains("invalid_grant"), "{message}");
    assert!(!message.contains(code));
}

#[tokio::test]
async fn a_pkce_verifier_that_does_not_match_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let form = authorize(&sim, &provider, NONCE).await;
    let code = form.field("code").unwrap();
    let message =
        assert_code_exchange(complete(&provider, code, OTHER_VERIFIER, NONCE, None).await);
    assert!(message.contains("invalid_grant"), "{message}");
}

#[tokio::test]
async fn an_expired_code_is_refused() {
    let sim = start(config(ada()).with_code_ttl(Duration::ZERO)).await;
    let message = assert_code_exchange(sign_in(&sim, &provider(&sim)).await);
    assert!(message.contains("invalid_grant"), "{message}");
}

#[tokio::test]
async fn token_endpoint_failures_are_code_exchange_failures() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let token = || Fault::new(Provider::Apple, Endpoint::Token);
    let cases = [
        (token().status(500), "HTTP 500"),
        (token().garbage(), "unreadable"),
        (token().error_in_200("invalid_request"), "invalid_request"),
    ];
    for (fault, expected) in cases {
        sim.set_fault(fault);
        let message = assert_code_exchange(sign_in(&sim, &provider).await);
        assert!(message.contains(expected), "{expected}: {message}");
    }
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_client_timeout_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Apple, Endpoint::Token).delay(Duration::from_secs(30)));
    let provider = build(
        settings(&sim),
        FIXTURE_SIGNING,
        ManualClock::starting_at(time::Duration::ZERO),
        Duration::from_millis(300),
    );
    let message = assert_code_exchange(sign_in(&sim, &provider).await);
    assert!(message.contains("timed out"), "{message}");
}

#[tokio::test]
async fn an_unavailable_key_set_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Apple, Endpoint::Jwks).status(503));
    let message = assert_user_info(sign_in(&sim, &provider(&sim)).await);
    assert!(
        message.contains("JWKS endpoint answered HTTP 503"),
        "{message}"
    );
}
