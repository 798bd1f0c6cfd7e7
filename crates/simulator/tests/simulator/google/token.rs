//! The simulated Google's token endpoint: client authentication, PKCE, single-use codes,
//! and the id_token it signs.

use super::support::*;
use crate::github::support::{CLIENT_ID, VERIFIER, http, redirect_query};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
use social_login_simulator::{ClientAuthKind, Endpoint, IdTokenFault, Provider, TEST_KEY_A};

/// The claims of `id_token`, after checking its RS256 signature with the published key.
fn verified_claims(id_token: &str) -> Value {
    let key = DecodingKey::from_rsa_components(TEST_KEY_A.n, TEST_KEY_A.e).unwrap();
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[G_CLIENT_ID]);
    jsonwebtoken::decode::<Value>(id_token, &key, &validation)
        .unwrap()
        .claims
}

/// The claims of `id_token` without checking anything, to inspect a broken token.
fn unverified_claims(id_token: &str) -> Value {
    let payload = id_token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn an_openid_exchange_returns_a_bearer_token_and_a_signed_id_token() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid email profile").await;
    let (status, body) = send_json(form_post(&sim, &token_form(&code))).await;
    assert_eq!(status, 200);
    assert!(body["access_token"].as_str().unwrap().starts_with("ya29."));
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3599);
    assert_eq!(body["scope"], "openid email profile");
    let id_token = body["id_token"].as_str().unwrap();
    let header = jsonwebtoken::decode_header(id_token).unwrap();
    assert_eq!(header.alg, Algorithm::RS256);
    assert_eq!(header.kid.as_deref(), Some(TEST_KEY_A.kid));
    let claims = verified_claims(id_token);
    assert_eq!(claims["iss"], sim.google().issuer);
    assert_eq!(claims["azp"], G_CLIENT_ID);
    assert_eq!(claims["sub"], "583231");
    assert_eq!(claims["nonce"], G_NONCE);
    assert_eq!(claims["email"], "ada@example.com");
    assert_eq!(claims["email_verified"], true);
    assert_eq!(claims["name"], "Ada Lovelace");
    assert_eq!(
        claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
        3600
    );
    assert!(claims["at_hash"].is_string());
}

#[tokio::test]
async fn without_openid_there_is_no_id_token() {
    let sim = start_google().await;
    let code = google_code(&sim, "email profile").await;
    let (status, body) = send_json(form_post(&sim, &token_form(&code))).await;
    assert_eq!(status, 200);
    assert!(body.get("id_token").is_none());
}

#[tokio::test]
async fn basic_client_credentials_are_accepted() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid").await;
    let form = without(&without(&token_form(&code), "client_id"), "client_secret");
    let basic = STANDARD.encode(format!("{G_CLIENT_ID}:{G_CLIENT_SECRET}"));
    let request = form_post(&sim, &form).header("authorization", format!("Basic {basic}"));
    let (status, _) = send_json(request).await;
    assert_eq!(status, 200);
    let record = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(record.client_auth, Some(ClientAuthKind::Basic));
}

#[tokio::test]
async fn missing_or_wrong_client_credentials_are_an_invalid_client_401() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid").await;
    let anonymous = without(&without(&token_form(&code), "client_id"), "client_secret");
    let (status, body) = send_json(form_post(&sim, &anonymous)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("invalid_client"))
    );

    let mut wrong = without(&token_form(&code), "client_secret");
    wrong.push(("client_secret", "guess"));
    let (status, body) = send_json(form_post(&sim, &wrong)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("invalid_client"))
    );

    // A GitHub client is not a Google client.
    let mut github = without(&token_form(&code), "client_id");
    github.push(("client_id", CLIENT_ID));
    let (status, _) = send_json(form_post(&sim, &github)).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_wrong_or_missing_verifier_is_an_invalid_grant_400() {
    let sim = start_google().await;
    let wrong_verifier = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    for verifier in [Some(wrong_verifier), None] {
        let code = google_code(&sim, "openid").await;
        let mut form = without(&token_form(&code), "code_verifier");
        form.extend(verifier.map(|v| ("code_verifier", v)));
        let (status, body) = send_json(form_post(&sim, &form)).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("invalid_grant"))
        );
    }
}

#[tokio::test]
async fn a_plain_challenge_is_verified_by_equality() {
    let sim = start_google().await;
    let mut params = without(
        &without(&authorize_params("openid"), "code_challenge"),
        "code_challenge_method",
    );
    params.push(("code_challenge", VERIFIER));
    let code = redirect_query(&google_authorize(&sim, &params).await)["code"].clone();
    let (status, _) = send_json(form_post(&sim, &token_form(&code))).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_code_is_single_use_and_bound_to_its_redirect_uri() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid").await;
    assert_eq!(send_json(form_post(&sim, &token_form(&code))).await.0, 200);
    let (status, body) = send_json(form_post(&sim, &token_form(&code))).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );

    let code = google_code(&sim, "openid").await;
    let mut elsewhere = without(&token_form(&code), "redirect_uri");
    elsewhere.push(("redirect_uri", "http://127.0.0.1:4000/other"));
    let (status, body) = send_json(form_post(&sim, &elsewhere)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("redirect_uri_mismatch"))
    );
}

#[tokio::test]
async fn a_json_token_request_is_refused() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid").await;
    let body: serde_json::Map<String, Value> = token_form(&code)
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::from(v)))
        .collect();
    let (status, answer) = send_json(http().post(&sim.google().token).json(&body)).await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (400, Some("invalid_request"))
    );
}

#[tokio::test]
async fn id_token_faults_break_exactly_the_claim_they_name() {
    let sim = start_google().await;
    let id_token_with = async |fault| {
        sim.set_id_token_fault(Provider::Google, fault);
        let code = google_code(&sim, "openid email").await;
        let (_, body) = send_json(form_post(&sim, &token_form(&code))).await;
        body["id_token"].as_str().unwrap().to_owned()
    };
    let expired = unverified_claims(&id_token_with(IdTokenFault::Expired).await);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(expired["exp"].as_u64().unwrap() < now, "already expired");
    assert_ne!(
        unverified_claims(&id_token_with(IdTokenFault::WrongAudience).await)["aud"],
        G_CLIENT_ID
    );
    assert!(
        unverified_claims(&id_token_with(IdTokenFault::MissingNonce).await)
            .get("nonce")
            .is_none()
    );
    let none = id_token_with(IdTokenFault::AlgNone).await;
    assert!(none.ends_with('.'));
    let hmac =
        jsonwebtoken::decode_header(id_token_with(IdTokenFault::HmacWithPublicKey).await).unwrap();
    assert_eq!(hmac.alg, Algorithm::HS256);
    let strings = unverified_claims(&id_token_with(IdTokenFault::StringBooleans).await);
    assert_eq!(strings["email_verified"], "true");
}
