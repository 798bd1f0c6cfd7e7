//! Native Sign in with Apple against the simulator's signed tokens: the bundle id from
//! `client_ids` as audience, the hashed nonce, and the name from the app's `post_body`.

use crate::support::*;
use social_login_domain::SecretText;
use social_login_ports::{IdTokenInput, IdentityProvider, PostBody, ProviderError};
use social_login_simulator::SimUser;

const BUNDLE_ID: &str = "com.example.ios";
const RAW_NONCE: &str = "raw-nonce-from-the-app";
// printf %s raw-nonce-from-the-app | sha256sum
const HASHED_NONCE: &str = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";

fn grace() -> SimUser {
    SimUser::new("000123.grace", "grace").with_email("grace@example.com", true)
}

#[tokio::test]
async fn a_token_for_the_bundle_id_signs_in_with_the_posted_name() {
    let sim = FX.start_as(grace()).await;
    let token = sim.mint_id_token(FX.provider, &grace(), BUNDLE_ID, Some(HASHED_NONCE));
    let input = |post_body: Option<PostBody>| IdTokenInput {
        id_token: SecretText::new(token.clone()),
        nonce: Some(SecretText::new(RAW_NONCE)),
        post_body,
    };

    // Without client_ids the bundle id is no audience of ours.
    let refused = provider(&sim).sign_in_with_id_token(input(None)).await;
    let expected = ProviderError::UserInfo("id_token audience is not this client".into());
    assert_eq!(refused, Err(expected));

    let mut settings = FX.settings(&sim);
    settings.client_ids = vec![BUNDLE_ID.to_owned()];
    let apple = provider_with(settings);
    let body = PostBody::new(r#"{"user": {"name": {"firstName": "Grace", "lastName": "Hopper"}}}"#);
    let identity = apple
        .sign_in_with_id_token(input(Some(body)))
        .await
        .unwrap()
        .identity;
    assert_eq!(identity.full_name.as_deref(), Some("Grace Hopper"));
    assert_eq!(identity.email.unwrap().as_str(), "grace@example.com");
    assert!(identity.email_verified);
    let later = apple
        .sign_in_with_id_token(input(None))
        .await
        .unwrap()
        .identity;
    assert_eq!(later.full_name, None);
    assert_eq!(later.subject, identity.subject);
}
