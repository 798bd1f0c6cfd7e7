//! Failing steps of a Google sign-in: token endpoint → CodeExchange, the rest → UserInfo.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_simulator::{Endpoint, Fault, Provider};

#[tokio::test]
async fn a_reused_code_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, NONCE).await;
    complete(&provider, &code, VERIFIER, NONCE).await.unwrap();
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER, NONCE).await);
    assert_eq!(message, "token endpoint answered error `invalid_grant`");
    assert!(!message.contains(&code));
}

#[tokio::test]
async fn a_wrong_pkce_verifier_is_refused_by_the_token_endpoint() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let code = authorize(&provider, NONCE).await;
    let other = "another-verifier-0123456789-0123456789-012345";
    let message = assert_code_exchange(complete(&provider, &code, other, NONCE).await);
    assert_eq!(message, "token endpoint answered error `invalid_grant`");
}

#[tokio::test]
async fn a_wrong_client_secret_is_an_invalid_client() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("not-the-secret");
    let provider = provider_with(settings, ManualClock::starting_now());
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered error `invalid_client`");
}

#[tokio::test]
async fn a_failing_token_endpoint_is_a_code_exchange_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Google, Endpoint::Token).status(503));
    let message = assert_code_exchange(sign_in(&provider(&sim)).await);
    assert!(message.contains("503"), "{message}");
}

#[tokio::test]
async fn a_token_answer_without_id_token_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    // Without `openid` Google sends no id_token.
    settings.scopes = Some(vec!["email".into(), "profile".into()]);
    let provider = provider_with(settings, ManualClock::starting_now());
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered no id_token");
}

#[tokio::test]
async fn a_failing_userinfo_endpoint_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    sim.set_fault(Fault::new(Provider::Google, Endpoint::Userinfo).status(500));
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "Google userinfo endpoint answered HTTP 500");

    sim.set_fault(Fault::new(Provider::Google, Endpoint::Userinfo).garbage());
    let message = assert_user_info(sign_in(&provider).await);
    assert!(message.contains("not the expected JSON"), "{message}");
}

#[tokio::test]
async fn an_unreachable_key_set_is_a_user_info_failure() {
    let sim = simulator(ada()).await;
    sim.set_fault(Fault::new(Provider::Google, Endpoint::Jwks).status(503));
    let message = assert_user_info(sign_in(&provider(&sim)).await);
    assert_eq!(message, "JWKS endpoint answered HTTP 503");
}
