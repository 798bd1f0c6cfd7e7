//! Every way the code exchange can fail ends as `ProviderError::CodeExchange`.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_simulator::{Endpoint, Fault, Provider};
use std::time::Duration;

#[tokio::test]
async fn a_wrong_pkce_verifier_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, VERIFIER).await;
    let other = "another-verifier-0123456789-0123456789-012345";
    let message = assert_code_exchange(complete(&provider, &code, other).await, &code);
    assert!(message.contains("bad_verification_code"), "{message}");
}

#[tokio::test]
async fn a_wrong_client_secret_is_refused() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("wrong-secret");
    let provider = provider_with(settings, Duration::from_secs(10));
    let code = authorize(&provider, VERIFIER).await;
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
    assert!(
        message.contains("incorrect_client_credentials"),
        "{message}"
    );
    assert!(!message.contains("wrong-secret"));
}

#[tokio::test]
async fn a_replayed_code_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, VERIFIER).await;
    assert!(complete(&provider, &code, VERIFIER).await.is_ok());
    assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
}

#[tokio::test]
async fn a_server_error_at_the_token_endpoint_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Token).status(500));
    let provider = provider(&sim);
    let code = authorize(&provider, VERIFIER).await;
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
    assert!(message.contains("HTTP 500"), "{message}");
}

#[tokio::test]
async fn a_garbage_token_response_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Token).garbage());
    let provider = provider(&sim);
    let code = authorize(&provider, VERIFIER).await;
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
    assert!(!message.contains("simulated garbage"), "{message}");
}

#[tokio::test]
async fn an_error_answered_with_http_200_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(
        Fault::new(Provider::Github, Endpoint::Token).error_in_200("unverified_user_email"),
    );
    let provider = provider(&sim);
    let code = authorize(&provider, VERIFIER).await;
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
    assert!(message.contains("unverified_user_email"), "{message}");
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_client_timeout_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Token).delay(Duration::from_secs(30)));
    let provider = provider_with(settings(&sim), Duration::from_millis(300));
    let code = authorize(&provider, VERIFIER).await;
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
    assert!(message.contains("timed out"), "{message}");
}

#[tokio::test]
async fn an_unreachable_token_endpoint_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    let provider_ok = provider(&sim);
    let code = authorize(&provider_ok, VERIFIER).await;
    // Port 9 (discard) on loopback: nothing listens there.
    settings.endpoints.token = Some("http://127.0.0.1:9/github/login/oauth/access_token".into());
    let provider = provider_with(settings, Duration::from_secs(5));
    assert_code_exchange(complete(&provider, &code, VERIFIER).await, &code);
}
