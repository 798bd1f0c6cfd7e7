//! The simulated Google: what its dialect and hooks add to what every provider does (see
//! `dialects`): the id_token it signs, its userinfo claims, a configured issuer, and the
//! id_token knobs of the control API.

use crate::support::fixtures::{GOOGLE, ada, config, start, start_with};
use crate::support::{NONCE, VERIFIER, claims_of, http, verified_claims};
use jsonwebtoken::Algorithm;
use social_login_simulator::{IdTokenFault, Provider, TEST_KEY_A};

#[tokio::test]
async fn an_openid_exchange_signs_an_id_token_about_the_user_with_the_nonce_and_at_hash() {
    let sim = start(&[GOOGLE]).await;
    let body = GOOGLE.client(&sim).tokens("openid email profile").await;
    let id_token = body["id_token"].as_str().unwrap();
    let header = jsonwebtoken::decode_header(id_token).unwrap();
    assert_eq!(header.alg, Algorithm::RS256);
    let claims = verified_claims(id_token, GOOGLE.id, &sim.google().issuer);
    assert_eq!(claims["azp"], GOOGLE.id);
    assert_eq!(claims["sub"], ada().id);
    assert_eq!(claims["nonce"], NONCE);
    assert_eq!(claims["email"], "ada@example.com");
    assert_eq!(claims["email_verified"], true);
    assert_eq!(claims["name"], "Ada Lovelace");
    let lifetime = claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap();
    assert_eq!(lifetime, 3600);
    assert!(claims["at_hash"].is_string());
}

#[tokio::test]
async fn without_openid_there_is_no_id_token_and_a_plain_challenge_is_checked_by_equality() {
    let client = GOOGLE.started().await;
    assert!(
        client
            .tokens("email profile")
            .await
            .get("id_token")
            .is_none()
    );
    let plain = client
        .valid("openid")
        .unset("code_challenge_method")
        .set("code_challenge", VERIFIER);
    let code = client.answer(&plain).await.get("code").unwrap().to_owned();
    assert_eq!(client.redeem(&code).await.0, 200);
}

#[tokio::test]
async fn a_missing_scope_or_another_response_type_is_sent_back_as_an_error() {
    let client = GOOGLE.started().await;
    let no_scope = client.answer(&client.valid("openid").unset("scope")).await;
    let refusal = [
        Some("invalid_request"),
        Some("simulated authorization error"),
    ];
    assert_eq!(no_scope.fields(["error", "error_description"]), refusal);
    let token_flow = client
        .answer(&client.valid("openid").set("response_type", "token"))
        .await;
    assert_eq!(token_flow.get("error"), Some("unsupported_response_type"));
}

#[tokio::test]
async fn userinfo_answers_the_claims_the_scopes_grant_and_a_challenge_without_a_token() {
    let client = GOOGLE.started().await;
    let profile = client.profile("openid email profile").await;
    assert_eq!(profile["email_verified"], true);
    assert_eq!(
        (
            profile["given_name"].as_str(),
            profile["family_name"].as_str()
        ),
        (Some("Ada"), Some("Lovelace"))
    );
    assert!(client.profile("openid").await.get("email").is_none());
    let response = http()
        .get(client.urls().userinfo.unwrap())
        .send()
        .await
        .unwrap();
    let challenge = response.headers()["www-authenticate"].to_str().unwrap();
    assert!(challenge.contains("invalid_token"), "{challenge}");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error_description"], "Invalid Credentials");
}

#[tokio::test]
async fn a_configured_issuer_replaces_the_default_one() {
    let sim = start_with(config(&[GOOGLE]).with_google_issuer("accounts.google.com")).await;
    let client = GOOGLE.client(&sim);
    assert_eq!(sim.google().issuer, "accounts.google.com");
    let (_, discovery) = client.get(&sim.google().discovery, None).await;
    assert_eq!(discovery["issuer"], "accounts.google.com");
    let id_token = client.tokens("openid").await["id_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(claims_of(&id_token)["iss"], "accounts.google.com");
}

#[tokio::test]
async fn id_token_faults_break_exactly_the_claim_they_name() {
    let sim = start(&[GOOGLE]).await;
    let client = GOOGLE.client(&sim);
    let id_token_with = async |fault| {
        sim.set_id_token_fault(Provider::Google, fault);
        client.tokens("openid email").await["id_token"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let expired = claims_of(&id_token_with(IdTokenFault::Expired).await);
    assert!(
        expired["exp"].as_i64().unwrap() < crate::support::unix_now(),
        "already expired"
    );
    let wrong_audience = claims_of(&id_token_with(IdTokenFault::WrongAudience).await);
    assert_ne!(wrong_audience["aud"], GOOGLE.id);
    let no_nonce = claims_of(&id_token_with(IdTokenFault::MissingNonce).await);
    assert!(no_nonce.get("nonce").is_none());
    assert!(id_token_with(IdTokenFault::AlgNone).await.ends_with('.'));
    let hmac = jsonwebtoken::decode_header(id_token_with(IdTokenFault::HmacWithPublicKey).await);
    assert_eq!(hmac.unwrap().alg, Algorithm::HS256);
    let strings = claims_of(&id_token_with(IdTokenFault::StringBooleans).await);
    assert_eq!(strings["email_verified"], "true");
}

#[tokio::test]
async fn id_token_faults_and_key_rotation_are_driven_over_http_too() {
    let sim = start(&[GOOGLE]).await;
    let client = GOOGLE.client(&sim);
    let kid = async || {
        let id_token = client.tokens("openid").await["id_token"]
            .as_str()
            .unwrap()
            .to_owned();
        jsonwebtoken::decode_header(id_token).unwrap().kid.unwrap()
    };
    let fault = serde_json::json!({"provider": "google", "fault": "unknown_kid"});
    assert_eq!(client.control("id_token_fault", Some(fault)).await, 204);
    assert_eq!(kid().await, "sim-key-unknown");
    assert_eq!(client.control("rotate_signing_key", None).await, 204);
    assert_eq!(client.clear_faults().await, 204);
    assert_eq!(kid().await, "sim-key-b");
    let (_, keys) = client.get(&sim.google().jwks, None).await;
    assert_eq!(
        keys["keys"][0]["kid"], TEST_KEY_A.kid,
        "both keys listed during the rotation"
    );
    assert_eq!(keys["keys"].as_array().unwrap().len(), 2);
}
