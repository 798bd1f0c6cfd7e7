//! Failing steps of a LinkedIn sign-in: the token endpoint → CodeExchange, the key set,
//! id_token and userinfo → UserInfo.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_simulator::{Endpoint, Fault, Provider};
use std::time::Duration;

#[tokio::test]
async fn a_reused_code_is_a_code_exchange_failure() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let code = authorize_as(&provider, "ada").await;
    complete(&provider, &code).await.unwrap();
    let message = assert_code_exchange(complete(&provider, &code).await);
    // LinkedIn answers a bad code with `invalid_request`, not `invalid_grant`.
    assert_eq!(message, "token endpoint answered error `invalid_request`");
    assert!(!message.contains(&code));
}

#[tokio::test]
async fn a_wrong_client_secret_is_an_invalid_client() {
    let sim = simulator().await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("not-the-secret");
    let provider = provider_with(settings, Duration::from_secs(10));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered error `invalid_client`");
}

#[tokio::test]
async fn a_failing_token_endpoint_is_a_code_exchange_failure() {
    let sim = simulator().await;
    let provider = provider(&sim);
    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Token).status(500));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered HTTP 500");

    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Token).garbage());
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered an unreadable response");

    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Token).error_in_200("invalid_request"));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered error `invalid_request`");
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_client_timeout_is_a_code_exchange_failure() {
    let sim = simulator().await;
    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Token).delay(Duration::from_secs(30)));
    let provider = provider_with(settings(&sim), Duration::from_millis(300));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint timed out");
}

#[tokio::test]
async fn a_token_answer_without_id_token_is_a_user_info_failure() {
    let sim = simulator().await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["profile".into(), "email".into()]);
    let provider = provider_with(settings, Duration::from_secs(10));
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered no id_token");
}

#[tokio::test]
async fn a_failing_userinfo_endpoint_is_a_user_info_failure() {
    let sim = simulator().await;
    let provider = provider(&sim);
    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Userinfo).status(500));
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "LinkedIn userinfo endpoint answered HTTP 500");

    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Userinfo).garbage());
    let message = assert_user_info(sign_in(&provider).await);
    assert!(message.contains("not the expected JSON"), "{message}");

    sim.set_fault(
        Fault::new(Provider::Linkedin, Endpoint::Userinfo).delay(Duration::from_secs(30)),
    );
    let slow = provider_with(settings(&sim), Duration::from_millis(500));
    let message = assert_user_info(sign_in(&slow).await);
    assert_eq!(message, "LinkedIn userinfo endpoint timed out");
}

#[tokio::test]
async fn an_unreachable_key_set_is_a_user_info_failure() {
    let sim = simulator().await;
    sim.set_fault(Fault::new(Provider::Linkedin, Endpoint::Jwks).status(503));
    let message = assert_user_info(sign_in(&provider(&sim)).await);
    assert_eq!(message, "JWKS endpoint answered HTTP 503");
}
