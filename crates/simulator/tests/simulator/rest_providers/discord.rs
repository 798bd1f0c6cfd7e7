//! The simulated Discord: exact redirect URIs, PKCE `S256` only, form bodies only, and
//! Discord's own answers to each `code_verifier` mistake.

use super::support::*;
use social_login_simulator::{
    DiscordSeed, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::collections::HashMap;

const CLIENT_ID: &str = "1234567890";
const SECRET: &str = "discord-secret";
const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/discord";

async fn start() -> SimulatorHandle {
    let user = SimUser::new("80351110224678912", "nelly")
        .with_email("nelly@example.com", true)
        .with_discord(DiscordSeed::legacy("1337").with_avatar("a_abc123"));
    Simulator::start(
        SimulatorConfig::default()
            .with_client(RegisteredClient::new(
                Provider::Discord,
                CLIENT_ID,
                SECRET,
                CALLBACK,
            ))
            .with_user(user),
    )
    .await
    .unwrap()
}

async fn authorize(
    sim: &SimulatorHandle,
    scope: &str,
    pkce: Option<(&str, &str)>,
) -> HashMap<String, String> {
    let mut params = vec![
        ("client_id", CLIENT_ID),
        ("redirect_uri", CALLBACK),
        ("response_type", "code"),
        ("scope", scope),
        ("state", "xyz"),
    ];
    if let Some((challenge, method)) = pkce {
        params.push(("code_challenge", challenge));
        params.push(("code_challenge_method", method));
    }
    redirected(&sim.discord().authorization, &params).await
}

async fn exchange(
    sim: &SimulatorHandle,
    code: &str,
    verifier: Option<&str>,
) -> (u16, serde_json::Value) {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", CALLBACK),
        ("client_id", CLIENT_ID),
        ("client_secret", SECRET),
    ];
    form.extend(verifier.map(|v| ("code_verifier", v)));
    post_form(&sim.discord().token, &form, None).await
}

#[tokio::test]
async fn a_code_with_s256_is_exchanged_once_for_discords_token_answer() {
    let sim = start().await;
    let query = authorize(&sim, "identify email", Some((CHALLENGE, "S256"))).await;
    assert_eq!(query["state"], "xyz");
    let (status, body) = exchange(&sim, &query["code"], Some(VERIFIER)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 604800);
    assert_eq!(body["scope"], "identify email");
    assert!(body["refresh_token"].is_string());

    let (status, user) =
        get_bearer(&sim.discord().user, body["access_token"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(user["id"], "80351110224678912");
    assert_eq!(user["discriminator"], "1337");
    assert_eq!(user["avatar"], "a_abc123");
    assert_eq!(user["verified"], true);

    let (status, again) = exchange(&sim, &query["code"], Some(VERIFIER)).await;
    assert_eq!(status, 400);
    assert_eq!(again["error"], "invalid_grant");
}

#[tokio::test]
async fn a_plain_challenge_is_refused_as_unsupported() {
    let sim = start().await;
    let query = authorize(&sim, "identify", Some((VERIFIER, "plain"))).await;
    assert_eq!(query["error"], "invalid_request");
    assert_eq!(
        query["error_description"],
        "Unsupported \"code_challenge_method\""
    );
    assert_eq!(query["state"], "xyz");
}

#[tokio::test]
async fn each_verifier_mistake_gets_its_own_answer() {
    let sim = start().await;
    let short = "too-short-verifier-0123456789";
    let code = authorize(&sim, "identify", Some((CHALLENGE, "S256"))).await["code"].clone();
    let (status, body) = exchange(&sim, &code, Some(short)).await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (400, Some("Invalid \"code_verifier\""))
    );

    let code = authorize(&sim, "identify", Some((CHALLENGE, "S256"))).await["code"].clone();
    let (status, body) = exchange(&sim, &code, None).await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (400, Some("Missing \"code_verifier\""))
    );

    let code = authorize(&sim, "identify", None).await["code"].clone();
    let (status, body) = exchange(&sim, &code, Some(VERIFIER)).await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (400, Some("Invalid \"code_verifier\""))
    );

    let code = authorize(&sim, "identify", Some((CHALLENGE, "S256"))).await["code"].clone();
    let other = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let (status, body) = exchange(&sim, &code, Some(other)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
}

#[tokio::test]
async fn a_json_token_request_is_refused() {
    let sim = start().await;
    let code = authorize(&sim, "identify", None).await["code"].clone();
    let body = serde_json::json!({
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK,
        "client_id": CLIENT_ID, "client_secret": SECRET,
    });
    let response = http()
        .post(sim.discord().token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn basic_client_credentials_are_accepted_and_wrong_ones_are_401() {
    let sim = start().await;
    let code = authorize(&sim, "identify", None).await["code"].clone();
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", CALLBACK),
    ];
    let (status, _) = post_form(&sim.discord().token, &form, Some((CLIENT_ID, SECRET))).await;
    assert_eq!(status, 200);
    let code = authorize(&sim, "identify", None).await["code"].clone();
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", CALLBACK),
    ];
    let (status, body) = post_form(&sim.discord().token, &form, Some((CLIENT_ID, "guess"))).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("invalid_client"))
    );
}

#[tokio::test]
async fn without_the_email_scope_the_user_has_no_email_fields() {
    let sim = start().await;
    let code = authorize(&sim, "identify", None).await["code"].clone();
    let (_, token) = exchange(&sim, &code, None).await;
    let (status, user) =
        get_bearer(&sim.discord().user, token["access_token"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert!(user.get("email").is_none() && user.get("verified").is_none());
    let (status, body) = get_bearer(&sim.discord().user, "not-a-token").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (401, Some("401: Unauthorized"))
    );
}
