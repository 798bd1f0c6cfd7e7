//! Failures after a good exchange: profile and emails end as `ProviderError::UserInfo`.

use crate::support::*;
use social_login_simulator::{Endpoint, Fault, Provider, SimUser};

async fn sign_in_with_fault(user: SimUser, fault: Fault) -> String {
    let sim = simulator(user).await;
    sim.set_fault(fault);
    assert_user_info(sign_in(&provider(&sim)).await)
}

#[tokio::test]
async fn a_server_error_on_the_profile_is_a_user_info_failure() {
    let message = sign_in_with_fault(
        ada(),
        Fault::new(Provider::Github, Endpoint::Userinfo).status(500),
    )
    .await;
    assert!(message.contains("500"), "{message}");
}

#[tokio::test]
async fn a_garbage_profile_is_a_user_info_failure() {
    let message = sign_in_with_fault(
        ada(),
        Fault::new(Provider::Github, Endpoint::Userinfo).garbage(),
    )
    .await;
    assert!(!message.contains("simulated garbage"), "{message}");
}

#[tokio::test]
async fn a_failing_emails_endpoint_is_a_user_info_failure_without_a_public_email() {
    sign_in_with_fault(
        ada(),
        Fault::new(Provider::Github, Endpoint::Emails).status(503),
    )
    .await;
    sign_in_with_fault(
        ada(),
        Fault::new(Provider::Github, Endpoint::Emails).garbage(),
    )
    .await;
}

#[tokio::test]
async fn emails_refused_for_lack_of_scope_signs_in_without_email() {
    // CONTRACT §4: a provider that returns no email still signs the user in.
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["read:user".into()]);
    let provider = provider_with(settings, std::time::Duration::from_secs(10));
    let identity = sign_in(&provider).await.unwrap().identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn with_a_public_email_a_failing_emails_endpoint_leaves_it_unverified() {
    let user = ada().with_public_email("ada@example.com");
    let sim = simulator(user).await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Emails).status(500));
    let identity = sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(
        !identity.email_verified,
        "unverifiable emails must never link accounts"
    );
}
