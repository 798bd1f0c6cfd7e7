//! Native Sign in with Apple against the simulator's signed tokens: the bundle id from
//! `with_client_ids` as audience, the hashed nonce, and the name from the app's `post_body`.

use crate::AppleProvider;
use social_login_domain::SecretText;
use social_login_ports::{IdTokenInput, IdentityProvider, PostBody, ProviderError};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, Provider, SimUser, Simulator,
    SimulatorConfig,
};
use std::time::Duration;

const SERVICES_ID: &str = "com.example.web";
const BUNDLE_ID: &str = "com.example.ios";
const RAW_NONCE: &str = "raw-nonce-from-the-app";
// printf %s raw-nonce-from-the-app | sha256sum
const HASHED_NONCE: &str = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";

fn grace() -> SimUser {
    SimUser::new("000123.grace", "grace").with_email("grace@example.com", true)
}

#[tokio::test]
async fn a_token_for_the_bundle_id_signs_in_with_the_posted_name() {
    let sim = Simulator::start(SimulatorConfig::default().with_user(grace()))
        .await
        .expect("simulator starts");
    let endpoints = sim.apple();
    let settings = ProviderSettings {
        client_id: SERVICES_ID.into(),
        client_secret: SecretText::new(""),
        redirect_uri: "https://app.example.com/auth/callback/apple".into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: EndpointOverrides {
            jwks: Some(endpoints.jwks),
            issuer: Some(endpoints.issuer),
            ..EndpointOverrides::default()
        },
    };
    let http = build_http_client(Duration::from_secs(10)).unwrap();
    let apple = AppleProvider::new(
        settings,
        APPLE_TEST_TEAM_ID.into(),
        APPLE_TEST_KEY_ID.into(),
        SecretText::new(APPLE_TEST_KEY_PEM),
        http,
    )
    .unwrap();
    let token = sim.mint_id_token(Provider::Apple, &grace(), BUNDLE_ID, Some(HASHED_NONCE));
    let input = |post_body: Option<PostBody>| IdTokenInput {
        id_token: SecretText::new(token.clone()),
        nonce: Some(SecretText::new(RAW_NONCE)),
        post_body,
    };

    // Without client_ids the bundle id is no audience of ours.
    let refused = apple.clone().sign_in_with_id_token(input(None)).await;
    assert_eq!(
        refused,
        Err(ProviderError::UserInfo(
            "id_token audience is not this client".into()
        ))
    );

    let apple = apple.with_client_ids(&[BUNDLE_ID.to_owned()]);
    let body = PostBody::new(r#"{"user": {"name": {"firstName": "Grace", "lastName": "Hopper"}}}"#);
    let identity = apple
        .sign_in_with_id_token(input(Some(body)))
        .await
        .unwrap();
    assert_eq!(identity.full_name.as_deref(), Some("Grace Hopper"));
    assert_eq!(identity.email.unwrap().as_str(), "grace@example.com");
    assert!(identity.email_verified);
    let later = apple.sign_in_with_id_token(input(None)).await.unwrap();
    assert_eq!(later.full_name, None);
    assert_eq!(later.subject, identity.subject);
}
