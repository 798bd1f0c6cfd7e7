//! The token endpoint: client authentication, single-use codes, PKCE, GitHub's answer formats.

use super::support::*;
use social_login_simulator::{ClientAuthKind, Endpoint};
use std::time::Duration;

fn creds<'a>(code: &'a str, verifier: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("client_id", CLIENT_ID),
        ("client_secret", CLIENT_SECRET),
        ("code", code),
        ("redirect_uri", CALLBACK),
        ("code_verifier", verifier),
    ]
}

#[tokio::test]
async fn a_valid_exchange_returns_a_gho_token_with_comma_separated_scopes() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let (status, body) = exchange(&sim, &creds(&code, VERIFIER)).await;
    assert_eq!(status, 200);
    let token = body["access_token"].as_str().unwrap();
    assert!(token.starts_with("gho_") && token.len() == 40, "{token}");
    assert_eq!(body["token_type"], "bearer");
    assert_eq!(body["scope"], "read:user,user:email");
}

#[tokio::test]
async fn a_code_cannot_be_used_twice() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    assert!(exchange(&sim, &creds(&code, VERIFIER)).await.1["access_token"].is_string());
    let (status, body) = exchange(&sim, &creds(&code, VERIFIER)).await;
    assert_eq!(status, 200, "GitHub answers errors with 200");
    assert_eq!(body["error"], "bad_verification_code");
    assert!(body.get("access_token").is_none());
}

#[tokio::test]
async fn a_wrong_or_missing_verifier_is_a_bad_verification_code() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let wrong = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    assert_eq!(
        exchange(&sim, &creds(&code, wrong)).await.1["error"],
        "bad_verification_code"
    );

    let code = code_with_pkce(&sim).await;
    let without_verifier = &creds(&code, "")[..4];
    assert_eq!(
        exchange(&sim, without_verifier).await.1["error"],
        "bad_verification_code"
    );
}

#[tokio::test]
async fn a_failed_attempt_burns_the_code() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let wrong = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    exchange(&sim, &creds(&code, wrong)).await;
    assert_eq!(
        exchange(&sim, &creds(&code, VERIFIER)).await.1["error"],
        "bad_verification_code"
    );
}

#[tokio::test]
async fn wrong_client_credentials_are_refused_without_burning_the_code() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let mut form = creds(&code, VERIFIER);
    form[1] = ("client_secret", "guess");
    let (status, body) = exchange(&sim, &form).await;
    assert_eq!(status, 200);
    assert_eq!(body["error"], "incorrect_client_credentials");
    assert!(exchange(&sim, &creds(&code, VERIFIER)).await.1["access_token"].is_string());
}

#[tokio::test]
async fn an_expired_code_is_a_bad_verification_code() {
    let sim = start_with(config().with_code_ttl(Duration::ZERO)).await;
    let code = code_with_pkce(&sim).await;
    assert_eq!(
        exchange(&sim, &creds(&code, VERIFIER)).await.1["error"],
        "bad_verification_code"
    );
}

#[tokio::test]
async fn a_different_redirect_uri_than_at_authorize_is_refused() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let other = format!("{CALLBACK}/other");
    let mut form = creds(&code, VERIFIER);
    form[3] = ("redirect_uri", &other);
    assert_eq!(
        exchange(&sim, &form).await.1["error"],
        "redirect_uri_mismatch"
    );
}

#[tokio::test]
async fn basic_client_authentication_is_accepted_and_logged() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let response = http()
        .post(&sim.github().token)
        .header("accept", "application/json")
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .form(&[("code", code.as_str()), ("code_verifier", VERIFIER)])
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["access_token"].is_string(), "{body}");
    let record = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(record.client_auth, Some(ClientAuthKind::Basic));
    assert!(record.code_verifier_present);
}

#[tokio::test]
async fn without_accept_json_the_answer_is_form_encoded() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let response = http()
        .post(&sim.github().token)
        .form(&creds(&code, VERIFIER))
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "application/x-www-form-urlencoded"
    );
    let body = response.text().await.unwrap();
    let pairs: std::collections::HashMap<String, String> =
        url::form_urlencoded::parse(body.as_bytes())
            .into_owned()
            .collect();
    assert!(pairs["access_token"].starts_with("gho_"));
    assert_eq!(pairs["scope"], "read:user,user:email");
}

#[tokio::test]
async fn a_json_request_body_is_accepted() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    let response = http()
        .post(&sim.github().token)
        .header("accept", "application/json")
        .json(&serde_json::json!({
            "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "code": code, "code_verifier": VERIFIER
        }))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["access_token"].is_string(), "{body}");
}

#[tokio::test]
async fn a_code_issued_to_one_client_is_useless_to_another() {
    let sim = start_with(
        config().with_client(social_login_simulator::RegisteredClient::new(
            social_login_simulator::Provider::Github,
            "other-client",
            "other-secret",
            CALLBACK,
        )),
    )
    .await;
    let code = code_with_pkce(&sim).await;
    let mut form = creds(&code, VERIFIER);
    form[0] = ("client_id", "other-client");
    form[1] = ("client_secret", "other-secret");
    assert_eq!(
        exchange(&sim, &form).await.1["error"],
        "bad_verification_code"
    );
}
