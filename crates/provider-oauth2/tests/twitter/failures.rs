//! Failures: the code exchange ends as `CodeExchange`, the user endpoint as `UserInfo`.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_ports::{ProviderError, ProviderLogin};
use social_login_simulator::{Endpoint, Fault, Provider, SimulatorHandle};
use std::time::Duration;

async fn exchange_failure_with(fault: Fault, timeout: Duration) -> String {
    let sim = simulator(ada()).await;
    sim.set_fault(fault);
    let provider = provider_with(settings(&sim), timeout);
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    let result = complete(&provider, &code, VERIFIER).await;
    expect_code_exchange(result, &[&code, CLIENT_SECRET])
}

fn expect_user_info_from(
    sim: &SimulatorHandle,
    result: Result<ProviderLogin, ProviderError>,
) -> String {
    let tokens = sim.issued_access_tokens();
    let secrets: Vec<&str> = tokens.iter().map(String::as_str).collect();
    expect_user_info(result, &secrets)
}

#[tokio::test]
async fn a_replayed_code_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    assert!(complete(&provider, &code, VERIFIER).await.is_ok());
    let message = expect_code_exchange(complete(&provider, &code, VERIFIER).await, &[&code]);
    assert!(message.contains("invalid_request"), "{message}");
}

#[tokio::test]
async fn a_code_older_than_x_allows_is_refused() {
    // X's codes live 30 seconds; a zero lifetime reaches that path without waiting.
    let sim = start(config(ada(), CLIENT_SECRET).with_twitter_code_ttl(Duration::ZERO)).await;
    let provider = provider(&sim);
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    expect_code_exchange(complete(&provider, &code, VERIFIER).await, &[&code]);
}

#[tokio::test]
async fn a_wrong_verifier_is_refused() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    let other = "another-verifier-0123456789-0123456789-0123";
    expect_code_exchange(complete(&provider, &code, other).await, &[&code]);
}

#[tokio::test]
async fn a_wrong_client_secret_is_refused_without_repeating_it() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("wrong-secret-value");
    let provider = provider_with(settings, Duration::from_secs(10));
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    let result = complete(&provider, &code, VERIFIER).await;
    let message = expect_code_exchange(result, &[&code, "wrong-secret-value"]);
    assert!(message.contains("unauthorized_client"), "{message}");
}

#[tokio::test]
async fn a_server_error_at_the_token_endpoint_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Twitter, Endpoint::Token).status(503);
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(message.contains("HTTP 503"), "{message}");
}

#[tokio::test]
async fn an_error_answered_with_http_200_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Twitter, Endpoint::Token).error_in_200("invalid_request");
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(message.contains("invalid_request"), "{message}");
}

#[tokio::test]
async fn a_garbage_token_response_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Twitter, Endpoint::Token).garbage();
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(!message.contains("simulated garbage"), "{message}");
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_timeout_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Twitter, Endpoint::Token).delay(Duration::from_secs(30));
    let message = exchange_failure_with(fault, Duration::from_millis(300)).await;
    assert!(message.contains("timed out"), "{message}");
}

#[tokio::test]
async fn a_failing_user_endpoint_is_a_user_info_failure() {
    for fault in [
        Fault::new(Provider::Twitter, Endpoint::Userinfo).status(500),
        Fault::new(Provider::Twitter, Endpoint::Userinfo).status(429),
        Fault::new(Provider::Twitter, Endpoint::Userinfo).garbage(),
        // A 200 without `data`.
        Fault::new(Provider::Twitter, Endpoint::Userinfo).error_in_200("invalid_request"),
    ] {
        let sim = simulator(ada()).await;
        sim.set_fault(fault);
        let result = sign_in_at(&provider(&sim)).await;
        expect_user_info_from(&sim, result);
    }
}

#[tokio::test]
async fn a_token_without_the_read_scopes_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["offline.access".into()]);
    let provider = provider_with(settings, Duration::from_secs(10));
    let message = expect_user_info_from(&sim, sign_in_at(&provider).await);
    assert!(message.contains("403"), "{message}");
}

#[tokio::test]
async fn a_user_endpoint_slower_than_the_timeout_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Twitter, Endpoint::Userinfo).delay(Duration::from_secs(30)));
    let provider = provider_with(settings(&sim), Duration::from_millis(500));
    let message = expect_user_info_from(&sim, sign_in_at(&provider).await);
    assert!(message.contains("timed out"), "{message}");
}
