//! Failures: the code exchange ends as `CodeExchange`, the Graph call as `UserInfo`.

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
    expect_code_exchange(result, &[&code, APP_SECRET])
}

fn expect_user_info_from(
    sim: &SimulatorHandle,
    result: Result<ProviderLogin, ProviderError>,
) -> String {
    let tokens = sim.issued_access_tokens();
    let mut secrets: Vec<&str> = tokens.iter().map(String::as_str).collect();
    secrets.push(APP_SECRET);
    expect_user_info(result, &secrets)
}

#[tokio::test]
async fn a_replayed_code_is_refused_in_the_graph_envelope() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    assert!(complete(&provider, &code, VERIFIER).await.is_ok());
    let message = expect_code_exchange(complete(&provider, &code, VERIFIER).await, &[&code]);
    assert!(message.contains("token endpoint"), "{message}");
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
async fn a_wrong_app_secret_is_refused_without_repeating_it() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("wrong-secret-value");
    let provider = provider_with(settings, Duration::from_secs(10));
    let code = authorize(&provider, CALLBACK, VERIFIER).await;
    let result = complete(&provider, &code, VERIFIER).await;
    expect_code_exchange(result, &[&code, "wrong-secret-value"]);
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.outcome, "OAuthException_1");
}

#[tokio::test]
async fn a_server_error_at_the_token_endpoint_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Facebook, Endpoint::Token).status(500);
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(message.contains("HTTP 500"), "{message}");
}

#[tokio::test]
async fn an_error_answered_with_http_200_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Facebook, Endpoint::Token).error_in_200("invalid_grant");
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(message.contains("invalid_grant"), "{message}");
}

#[tokio::test]
async fn a_garbage_token_response_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Facebook, Endpoint::Token).garbage();
    let message = exchange_failure_with(fault, Duration::from_secs(10)).await;
    assert!(!message.contains("simulated garbage"), "{message}");
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_timeout_is_a_code_exchange_failure() {
    let fault = Fault::new(Provider::Facebook, Endpoint::Token).delay(Duration::from_secs(30));
    let message = exchange_failure_with(fault, Duration::from_millis(300)).await;
    assert!(message.contains("timed out"), "{message}");
}

#[tokio::test]
async fn a_failing_graph_call_is_a_user_info_failure() {
    for fault in [
        Fault::new(Provider::Facebook, Endpoint::Userinfo).status(500),
        Fault::new(Provider::Facebook, Endpoint::Userinfo).status(400),
        Fault::new(Provider::Facebook, Endpoint::Userinfo).garbage(),
        Fault::new(Provider::Facebook, Endpoint::Userinfo).error_in_200("OAuthException"),
    ] {
        let sim = simulator(ada()).await;
        sim.set_fault(fault);
        let result = sign_in_at(&provider(&sim)).await;
        expect_user_info_from(&sim, result);
    }
}

#[tokio::test]
async fn a_graph_call_slower_than_the_timeout_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(
        Fault::new(Provider::Facebook, Endpoint::Userinfo).delay(Duration::from_secs(30)),
    );
    let provider = provider_with(settings(&sim), Duration::from_millis(500));
    let message = expect_user_info_from(&sim, sign_in_at(&provider).await);
    assert!(message.contains("timed out"), "{message}");
}
