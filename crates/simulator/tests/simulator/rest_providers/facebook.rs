//! The simulated Facebook: the dialog, the token endpoint by GET or POST with Graph
//! errors, and `/me` guarded by `appsecret_proof`.

use super::support::*;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};

const APP_ID: &str = "1234567890";
const SECRET: &str = "facebook-secret";
const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/facebook";

async fn start() -> SimulatorHandle {
    let user = SimUser::new("10229876543210987", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true);
    Simulator::start(
        SimulatorConfig::default()
            .with_client(RegisteredClient::new(
                Provider::Facebook,
                APP_ID,
                SECRET,
                CALLBACK,
            ))
            .with_user(user),
    )
    .await
    .unwrap()
}

async fn code(sim: &SimulatorHandle, extra: &[(&str, &str)]) -> String {
    let mut params = vec![
        ("client_id", APP_ID),
        ("redirect_uri", CALLBACK),
        ("scope", "email,public_profile"),
        ("state", "xyz"),
    ];
    params.extend_from_slice(extra);
    let query = redirected(&sim.facebook().authorization, &params).await;
    assert_eq!(query["state"], "xyz");
    query["code"].clone()
}

fn proof(token: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(token.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A token from the GET form of the exchange, parameters in the query.
async fn token(sim: &SimulatorHandle) -> String {
    let code = code(sim, &[]).await;
    let url = url::Url::parse_with_params(
        &sim.facebook().token,
        &[
            ("client_id", APP_ID),
            ("client_secret", SECRET),
            ("redirect_uri", CALLBACK),
            ("code", code.as_str()),
        ],
    )
    .unwrap();
    let body: serde_json::Value = http().get(url).send().await.unwrap().json().await.unwrap();
    assert_eq!(body["token_type"], "bearer");
    assert_eq!(body["expires_in"], 5183999);
    body["access_token"].as_str().unwrap().to_owned()
}

async fn me(
    sim: &SimulatorHandle,
    token: &str,
    query: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    let url = url::Url::parse_with_params(&sim.facebook().me, query).unwrap();
    get_bearer(url.as_str(), token).await
}

#[tokio::test]
async fn me_answers_the_requested_fields_with_a_correct_proof() {
    let sim = start().await;
    let token = token(&sim).await;
    let proof = proof(&token);
    let (status, body) = me(
        &sim,
        &token,
        &[
            ("fields", "id,name,email,picture"),
            ("appsecret_proof", &proof),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], "10229876543210987");
    assert_eq!(body["email"], "ada@example.com");
    assert_eq!(body["picture"]["data"]["is_silhouette"], true);
    assert!(body.get("first_name").is_none());
}

#[tokio::test]
async fn me_refuses_a_missing_or_wrong_proof_in_the_graph_envelope() {
    let sim = start().await;
    let token = token(&sim).await;
    let (status, body) = me(&sim, &token, &[("fields", "id")]).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["type"], "GraphMethodException");
    assert_eq!(
        body["error"]["message"],
        "API calls from the server require an appsecret_proof argument"
    );
    let wrong = proof("another-token");
    let (status, body) = me(&sim, &token, &[("appsecret_proof", &wrong)]).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["message"],
        "Invalid appsecret_proof provided in the API argument"
    );
    let (status, body) = me(&sim, "EAAnot-a-token", &[("appsecret_proof", &wrong)]).await;
    assert_eq!((status, body["error"]["code"].as_u64()), (400, Some(190)));
}

#[tokio::test]
async fn a_redirect_uri_other_than_the_dialogs_is_refused_with_its_subcode() {
    let sim = start().await;
    let code = code(&sim, &[]).await;
    let form = [
        ("client_id", APP_ID),
        ("client_secret", SECRET),
        ("redirect_uri", "http://127.0.0.1:4000/other"),
        ("code", code.as_str()),
    ];
    let (status, body) = post_form(&sim.facebook().token, &form, None).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["type"], "OAuthException");
    assert_eq!(body["error"]["error_subcode"], 36008);
    assert!(body["error"]["fbtrace_id"].is_string());
}

async fn exchange(
    sim: &SimulatorHandle,
    code: &str,
    verifier: Option<&str>,
) -> (u16, serde_json::Value) {
    let mut form = vec![
        ("client_id", APP_ID),
        ("client_secret", SECRET),
        ("redirect_uri", CALLBACK),
        ("code", code),
    ];
    form.extend(verifier.map(|v| ("code_verifier", v)));
    post_form(&sim.facebook().token, &form, None).await
}

#[tokio::test]
async fn a_stored_challenge_needs_its_verifier_at_the_exchange() {
    let sim = start().await;
    let pkce = [
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ];
    let (status, _) = exchange(&sim, &code(&sim, &pkce).await, Some(VERIFIER)).await;
    assert_eq!(status, 200);
    let (status, body) = exchange(&sim, &code(&sim, &pkce).await, None).await;
    assert_eq!((status, body["error"]["code"].as_u64()), (400, Some(100)));
    let (status, _) = exchange(&sim, &code(&sim, &pkce).await, Some(CHALLENGE)).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_cancelled_dialog_redirects_with_facebooks_error_parameters() {
    let sim = start().await;
    let query = redirected(
        &sim.facebook().authorization,
        &[
            ("client_id", APP_ID),
            ("redirect_uri", CALLBACK),
            ("state", "xyz"),
            ("sim_deny", "1"),
        ],
    )
    .await;
    assert_eq!(query["error"], "access_denied");
    assert_eq!(query["error_reason"], "user_denied");
    assert_eq!(query["state"], "xyz");
}

#[tokio::test]
async fn an_unregistered_redirect_uri_is_an_error_page() {
    let sim = start().await;
    let url = url::Url::parse_with_params(
        &sim.facebook().authorization,
        &[
            ("client_id", APP_ID),
            ("redirect_uri", "http://evil.example/cb"),
        ],
    )
    .unwrap();
    let response = http().get(url).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.headers().get("location").is_none());
}
