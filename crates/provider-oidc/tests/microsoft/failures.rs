//! Failing steps of a Microsoft sign-in: the token endpoint → CodeExchange, the key set and
//! id_token → UserInfo. Messages name the failure, never a code, token or AADSTS text.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_simulator::{Endpoint, Fault, Provider};
use std::time::Duration;

#[tokio::test]
async fn a_reused_code_is_a_code_exchange_failure() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let code = authorize_as(&provider, "ada", NONCE).await;
    complete(&provider, &code, VERIFIER, NONCE).await.unwrap();
    let message = assert_code_exchange(complete(&provider, &code, VERIFIER, NONCE).await);
    assert_eq!(message, "token endpoint answered error `invalid_grant`");
    assert!(!message.contains(&code));
}

#[tokio::test]
async fn a_wrong_pkce_verifier_is_refused_by_the_token_endpoint() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let code = authorize_as(&provider, "ada", NONCE).await;
    let other = "another-verifier-0123456789-0123456789-012345";
    let message = assert_code_exchange(complete(&provider, &code, other, NONCE).await);
    assert_eq!(message, "token endpoint answered error `invalid_grant`");
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
    sim.set_fault(Fault::new(Provider::Microsoft, Endpoint::Token).status(503));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered HTTP 503");

    sim.set_fault(Fault::new(Provider::Microsoft, Endpoint::Token).garbage());
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered an unreadable response");

    sim.set_fault(
        Fault::new(Provider::Microsoft, Endpoint::Token).error_in_200("temporarily_unavailable"),
    );
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(
        message,
        "token endpoint answered error `temporarily_unavailable`"
    );
}

#[tokio::test]
async fn a_token_endpoint_slower_than_the_client_timeout_is_a_code_exchange_failure() {
    let sim = simulator().await;
    sim.set_fault(Fault::new(Provider::Microsoft, Endpoint::Token).delay(Duration::from_secs(30)));
    let provider = provider_with(settings(&sim), Duration::from_millis(300));
    let message = assert_code_exchange(sign_in(&provider).await);
    assert_eq!(message, "token endpoint timed out");
}

#[tokio::test]
async fn a_token_answer_without_id_token_is_a_user_info_failure() {
    let sim = simulator().await;
    let mut settings = settings(&sim);
    // Without `openid` Microsoft sends no id_token.
    settings.scopes = Some(vec!["email".into(), "profile".into()]);
    let provider = provider_with(settings, Duration::from_secs(10));
    let message = assert_user_info(sign_in(&provider).await);
    assert_eq!(message, "token endpoint answered no id_token");
}

#[tokio::test]
async fn an_unreachable_key_set_is_a_user_info_failure() {
    let sim = simulator().await;
    sim.set_fault(Fault::new(Provider::Microsoft, Endpoint::Jwks).status(503));
    let message = assert_user_info(sign_in(&provider(&sim)).await);
    assert_eq!(message, "JWKS endpoint answered HTTP 503");
}
