//! The simulated Apple's token endpoint: the ES256 client secret, the answer and its
//! id_token styled by the knobs, the refresh grant without rotation, and revocation that
//! asks for consent again.

use super::{SUB, start_apple};
use crate::support::fixtures::{APPLE, config, start_with};
use crate::support::{apple_secret_claims, apple_secret_with, refusal, unix_now, verified_claims};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, AppleKnobs, ClaimStyle, ClientAuthKind, Endpoint,
    RequestRecord, SimulatorConfig, SimulatorHandle, TokenKind,
};

/// A P-256 key that no seeded team owns (a test fixture).
const STRANGER_KEY_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqQ0n8o+o9f7HjCWw
O9VGAsYMaC7sYa+Q1MDhIFeoC+GhRANCAASDAYvTHPDZwX8+di2x+9YgG+v4iMfl
4tInfZrIeyy/vQtGDfQzZ2IKpLlAJZryid+TIEhxm6gwa1MtGxav7KKI
-----END PRIVATE KEY-----
";

fn token_record(sim: &SimulatorHandle) -> RequestRecord {
    let mut records = sim.requests().into_iter().rev();
    records
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap()
}

fn id_token(body: &serde_json::Value) -> serde_json::Value {
    verified_claims(
        body["id_token"].as_str().unwrap(),
        APPLE.id,
        "https://appleid.apple.com",
    )
}

#[tokio::test]
async fn a_valid_secret_gets_tokens_and_an_id_token_about_the_user_and_its_lifetime_is_logged() {
    let sim = start_apple().await;
    let body = APPLE.client(&sim).tokens(APPLE.scope).await;
    let claims = id_token(&body);
    assert_eq!(
        (claims["sub"].as_str(), claims["nonce"].as_str()),
        (Some(SUB), Some(crate::support::NONCE))
    );
    assert_eq!(claims["nonce_supported"], true);
    assert_eq!(
        (
            claims["email_verified"].as_str(),
            claims["is_private_email"].as_str()
        ),
        (Some("true"), Some("false"))
    );
    assert!(
        claims.get("real_user_status").is_none(),
        "absent on the web"
    );
    let record = token_record(&sim);
    assert_eq!(
        (record.outcome.as_str(), record.client_auth),
        ("ok", Some(ClientAuthKind::Body))
    );
    assert_eq!(
        record.client_secret_exp.unwrap() - record.client_secret_iat.unwrap(),
        300
    );
}

#[tokio::test]
async fn booleans_and_private_relay_addresses_follow_the_knobs() {
    let sim = start_apple().await;
    sim.set_apple_knobs(AppleKnobs {
        claim_style: ClaimStyle::Booleans,
        private_relay_email: true,
        ..AppleKnobs::default()
    });
    let client = APPLE.client(&sim);
    let answer = client.answer(&client.valid(APPLE.scope)).await;
    let (_, body) = client
        .token(&client.token_form(answer.get("code").unwrap()))
        .await;
    let claims = id_token(&body);
    let relay = claims["email"].as_str().unwrap();
    assert!(relay.ends_with("@privaterelay.appleid.com"), "{relay}");
    assert_eq!(
        (
            claims["email_verified"].as_bool(),
            claims["is_private_email"].as_bool()
        ),
        (Some(true), Some(true))
    );
    let user: serde_json::Value = serde_json::from_str(answer.get("user").unwrap()).unwrap();
    assert_eq!(
        user["email"], relay,
        "the user field shows the same relay address"
    );
}

#[tokio::test]
async fn every_bad_client_secret_is_invalid_client_and_logs_no_lifetime() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let mut expired = apple_secret_claims();
    expired["iat"] = (unix_now() - 600).into();
    expired["exp"] = (unix_now() - 300).into();
    let mut other_client = apple_secret_claims();
    other_client["sub"] = "com.other.web".into();
    let secrets = [
        "a-static-secret".to_owned(),
        apple_secret_with(STRANGER_KEY_PEM, APPLE_TEST_KEY_ID, &apple_secret_claims()),
        apple_secret_with(APPLE_TEST_KEY_PEM, "OTHERKEY01", &apple_secret_claims()),
        apple_secret_with(APPLE_TEST_KEY_PEM, APPLE_TEST_KEY_ID, &expired),
        apple_secret_with(APPLE_TEST_KEY_PEM, APPLE_TEST_KEY_ID, &other_client),
    ];
    for secret in secrets {
        let code = client.code(APPLE.scope).await;
        let answer = client
            .exchange(&code, |f| f.set("client_secret", &secret))
            .await;
        assert_eq!(refusal(&answer), (400, "invalid_client"));
        assert_eq!(token_record(&sim).client_secret_iat, None);
    }
}

#[tokio::test]
async fn a_simulator_without_a_seeded_team_accepts_no_secret() {
    let sim = start_with(SimulatorConfig {
        apple_teams: Vec::new(),
        ..config(&[APPLE])
    })
    .await;
    let client = APPLE.client(&sim);
    let answer = client.redeem_fresh(APPLE.scope).await;
    assert_eq!(refusal(&answer), (400, "invalid_client"));
}

#[tokio::test]
async fn an_unknown_grant_type_is_refused() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let answer = client
        .exchange("x", |f| f.set("grant_type", "password"))
        .await;
    assert_eq!(refusal(&answer), (400, "unsupported_grant_type"));
}

#[tokio::test]
async fn the_refresh_grant_answers_a_new_access_token_and_id_token_but_no_refresh_token() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let first = client.tokens(APPLE.scope).await;
    let form = client.refresh_form(first["refresh_token"].as_str().unwrap());
    let (status, body) = client.token(&form).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("refresh_token").is_none());
    assert_ne!(body["access_token"], first["access_token"]);
    let claims = id_token(&body);
    assert_eq!(claims["sub"], SUB);
    assert!(
        claims.get("nonce").is_none(),
        "no authorization request, no nonce"
    );
    let answer = client.token(&form.set("refresh_token", "r-unknown")).await;
    assert_eq!(refusal(&answer), (400, "invalid_grant"));
}

#[tokio::test]
async fn revoking_the_refresh_token_ends_it_and_asks_for_consent_again() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let first = client.answer(&client.valid(APPLE.scope)).await;
    assert!(first.get("user").is_some());
    let (_, body) = client
        .token(&client.token_form(first.get("code").unwrap()))
        .await;
    let refresh_token = body["refresh_token"].as_str().unwrap();
    assert!(
        client
            .answer(&client.valid(APPLE.scope))
            .await
            .get("user")
            .is_none()
    );
    assert_eq!(client.revoke(refresh_token, "refresh_token").await.0, 200);
    let revoked = sim.revocations().pop().unwrap();
    assert_eq!(
        (revoked.token.as_str(), revoked.kind),
        (refresh_token, Some(TokenKind::Refresh))
    );
    let again = client.answer(&client.valid(APPLE.scope)).await;
    assert!(
        again.get("user").is_some(),
        "Apple posts the name again (TN3194)"
    );
    let form = client.refresh_form(refresh_token);
    assert_eq!(client.token(&form).await.1["error"], "invalid_grant");
    let static_secret = client
        .token_form("")
        .set("client_secret", "static")
        .set("token", "x");
    let (status, _) = client
        .post(&client.urls().revocation.unwrap(), &static_secret, None)
        .await;
    assert_eq!(status, 400, "a bad secret is refused at revocation too");
}
