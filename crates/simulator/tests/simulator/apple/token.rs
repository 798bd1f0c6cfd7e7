//! The simulated Apple's token endpoint: the ES256 client secret, single-use codes bound to
//! the callback and the PKCE challenge, and the shape of the answer.

use super::support::*;
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, AppleKnobs, ClaimStyle, ClientAuthKind, Endpoint,
    SimulatorConfig,
};
use std::time::Duration;

/// A P-256 key that no seeded team owns (a test fixture).
const STRANGER_KEY_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqQ0n8o+o9f7HjCWw
O9VGAsYMaC7sYa+Q1MDhIFeoC+GhRANCAASDAYvTHPDZwX8+di2x+9YgG+v4iMfl
4tInfZrIeyy/vQtGDfQzZ2IKpLlAJZryid+TIEhxm6gwa1MtGxav7KKI
-----END PRIVATE KEY-----
";

fn token_record(
    sim: &social_login_simulator::SimulatorHandle,
) -> social_login_simulator::RequestRecord {
    sim.requests()
        .into_iter()
        .rev()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap()
}

#[tokio::test]
async fn a_valid_exchange_answers_tokens_and_an_id_token_about_the_user() {
    let sim = start().await;
    let code = code(&sim).await;
    let (status, body) = post_token(&sim, &token_form(&code, &secret())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert!(body["access_token"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(
        body["refresh_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    let claims = id_token_claims(body["id_token"].as_str().unwrap());
    assert_eq!(claims["sub"], SUB);
    assert_eq!(claims["nonce"], NONCE);
    assert_eq!(claims["nonce_supported"], true);
    assert_eq!(claims["email"], "ada@example.com");
    assert_eq!(claims["email_verified"], "true");
    assert_eq!(claims["is_private_email"], "false");
    assert!(
        claims.get("real_user_status").is_none(),
        "absent on the web"
    );

    let record = token_record(&sim);
    assert_eq!(record.outcome, "ok");
    assert_eq!(record.client_auth, Some(ClientAuthKind::Body));
    let (iat, exp) = (
        record.client_secret_iat.unwrap(),
        record.client_secret_exp.unwrap(),
    );
    assert_eq!(exp - iat, 300);
}

#[tokio::test]
async fn booleans_and_private_relay_addresses_follow_the_knobs() {
    let sim = start().await;
    sim.set_apple_knobs(AppleKnobs {
        claim_style: ClaimStyle::Booleans,
        private_relay_email: true,
        ..AppleKnobs::default()
    });
    let form = form_post(&sim, &authorize_params()).await;
    let (_, body) = post_token(&sim, &token_form(form.field("code").unwrap(), &secret())).await;
    let claims = id_token_claims(body["id_token"].as_str().unwrap());
    let relay = claims["email"].as_str().unwrap();
    assert!(relay.ends_with("@privaterelay.appleid.com"), "{relay}");
    assert_eq!(claims["email_verified"], true);
    assert_eq!(claims["is_private_email"], true);
    let user: serde_json::Value = serde_json::from_str(form.field("user").unwrap()).unwrap();
    assert_eq!(
        user["email"], relay,
        "the user field shows the same relay address"
    );
}

#[tokio::test]
async fn every_bad_client_secret_is_invalid_client() {
    let sim = start().await;
    let mut expired = secret_claims();
    expired["iat"] = (now() - 600).into();
    expired["exp"] = (now() - 300).into();
    let mut other_client = secret_claims();
    other_client["sub"] = "com.other.web".into();
    let secrets = [
        "a-static-secret".to_owned(),
        secret_with(STRANGER_KEY_PEM, APPLE_TEST_KEY_ID, &secret_claims()),
        secret_with(APPLE_TEST_KEY_PEM, "OTHERKEY01", &secret_claims()),
        secret_with(APPLE_TEST_KEY_PEM, APPLE_TEST_KEY_ID, &expired),
        secret_with(APPLE_TEST_KEY_PEM, APPLE_TEST_KEY_ID, &other_client),
    ];
    for secret in secrets {
        let code = code(&sim).await;
        let (status, body) = post_token(&sim, &token_form(&code, &secret)).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("invalid_client"))
        );
        assert_eq!(token_record(&sim).client_secret_iat, None);
    }
}

#[tokio::test]
async fn http_basic_is_refused_even_with_a_valid_secret() {
    let sim = start().await;
    let code = code(&sim).await;
    let form = set(
        &set(&token_form(&code, ""), "client_id", None),
        "client_secret",
        None,
    );
    let response = http()
        .post(&sim.apple().token)
        .basic_auth(CLIENT_ID, Some(secret()))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert_eq!(token_record(&sim).client_auth, Some(ClientAuthKind::Basic));
    assert_eq!(token_record(&sim).outcome, "invalid_client");
}

#[tokio::test]
async fn a_code_is_single_use_and_bound_to_callback_and_verifier() {
    let sim = start().await;
    let code = code(&sim).await;
    assert_eq!(post_token(&sim, &token_form(&code, &secret())).await.0, 200);
    let (status, body) = post_token(&sim, &token_form(&code, &secret())).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );

    let wrong_verifier = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let cases = [
        ("code_verifier", Some(wrong_verifier)),
        ("code_verifier", None),
        ("redirect_uri", Some("http://127.0.0.1:4000/other")),
    ];
    for (field, value) in cases {
        let code = super::support::code(&sim).await;
        let form = set(&token_form(&code, &secret()), field, value);
        let (status, body) = post_token(&sim, &form).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("invalid_grant")),
            "{field}"
        );
    }
}

#[tokio::test]
async fn an_expired_code_is_invalid_grant() {
    let sim = start_with(config().with_code_ttl(Duration::ZERO)).await;
    let code = code(&sim).await;
    let (status, body) = post_token(&sim, &token_form(&code, &secret())).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
}

#[tokio::test]
async fn a_json_body_or_an_unknown_grant_type_is_refused() {
    let sim = start().await;
    let response = http()
        .post(&sim.apple().token)
        .json(&serde_json::json!({"grant_type": "authorization_code"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let form = set(&token_form("x", &secret()), "grant_type", Some("password"));
    let (status, body) = post_token(&sim, &form).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("unsupported_grant_type"))
    );
}

#[tokio::test]
async fn a_simulator_without_a_seeded_team_accepts_no_secret() {
    let sim = start_with(
        SimulatorConfig::default()
            .with_client(social_login_simulator::RegisteredClient::new(
                social_login_simulator::Provider::Apple,
                CLIENT_ID,
                "",
                CALLBACK,
            ))
            .with_user(ada()),
    )
    .await;
    let code = code(&sim).await;
    let (status, body) = post_token(&sim, &token_form(&code, &secret())).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_client"))
    );
}
