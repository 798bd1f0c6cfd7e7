//! The simulated Microsoft's token endpoint: body or Basic client authentication, AADSTS
//! error envelopes, and the id_token it signs (own-tenant issuer, pairwise subject).

use super::support::*;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use social_login_simulator::{MICROSOFT_CONSUMER_TENANT, SimulatorHandle};

async fn code(sim: &SimulatorHandle, client: &str, user: &str, scope: &str) -> String {
    let params = [
        ("client_id", client),
        ("redirect_uri", MS_CALLBACK),
        ("response_type", "code"),
        ("scope", scope),
        ("nonce", NONCE),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
        ("sim_user", user),
    ];
    redirect_query(&get(&sim.microsoft().authorization, &params).await)["code"].clone()
}

fn form<'a>(client: &'a str, code: &'a str, verifier: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("grant_type", "authorization_code"),
        ("client_id", client),
        ("client_secret", MS_SECRET),
        ("code", code),
        ("redirect_uri", MS_CALLBACK),
        ("code_verifier", verifier),
    ]
}

async fn exchange(sim: &SimulatorHandle, form: &[(&str, &str)]) -> (u16, Value) {
    status_and_json(http().post(&sim.microsoft().token).form(form)).await
}

/// Asserts Microsoft's error envelope with `error` and AADSTS `number`.
fn assert_aadsts(body: &Value, error: &str, number: u64) {
    assert_eq!(body["error"], error);
    assert_eq!(body["error_codes"], serde_json::json!([number]));
    let description = body["error_description"].as_str().unwrap();
    assert!(
        description.starts_with(&format!("AADSTS{number}: ")),
        "{description}"
    );
    assert!(description.contains(body["trace_id"].as_str().unwrap()));
    for field in ["timestamp", "trace_id", "correlation_id", "error_uri"] {
        assert!(body[field].is_string(), "{field}");
    }
}

#[tokio::test]
async fn an_exchange_answers_tokens_and_an_id_token_of_the_users_own_tenant() {
    let sim = start().await;
    let code = code(
        &sim,
        MS_CLIENT,
        "grace",
        "openid profile email offline_access",
    )
    .await;
    let (status, body) = exchange(&sim, &form(MS_CLIENT, &code, VERIFIER)).await;
    assert_eq!(status, 200);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3599);
    assert_eq!(body["ext_expires_in"], 3599);
    assert_eq!(body["scope"], "openid profile email offline_access");
    assert!(body["access_token"].as_str().unwrap().starts_with("EwA"));
    assert!(body["refresh_token"].is_string());
    let claims = claims_of(body["id_token"].as_str().unwrap());
    assert_eq!(claims["iss"], sim.microsoft().issuer_of(CONTOSO));
    assert_eq!(claims["tid"], CONTOSO);
    assert_eq!(claims["aud"], MS_CLIENT);
    assert_eq!(claims["ver"], "2.0");
    assert_eq!(claims["nonce"], NONCE);
    assert_eq!(claims["preferred_username"], "grace@contoso.com");
    assert_eq!(claims["xms_edov"], "1");
    assert!(claims.get("email").is_none(), "grace has no email");
    assert_eq!(claims["oid"].as_str().unwrap().len(), 36);
}

#[tokio::test]
async fn the_subject_is_pairwise_per_app_but_the_object_id_is_not() {
    let sim = start().await;
    let mut seen = Vec::new();
    for client in [MS_CLIENT, MS_OTHER_CLIENT] {
        let code = code(&sim, client, "ada", "openid profile").await;
        let (_, body) = exchange(&sim, &form(client, &code, VERIFIER)).await;
        seen.push(claims_of(body["id_token"].as_str().unwrap()));
    }
    assert_ne!(seen[0]["sub"], seen[1]["sub"]);
    assert_eq!(seen[0]["oid"], seen[1]["oid"]);
    assert_eq!(seen[0]["tid"], MICROSOFT_CONSUMER_TENANT);
    assert!(
        seen[0]["oid"]
            .as_str()
            .unwrap()
            .starts_with("00000000-0000-0000-")
    );
}

#[tokio::test]
async fn http_basic_client_authentication_is_accepted_too() {
    let sim = start().await;
    let code = code(&sim, MS_CLIENT, "ada", "openid").await;
    let without_secret: Vec<_> = form(MS_CLIENT, &code, VERIFIER)
        .into_iter()
        .filter(|(k, _)| *k != "client_secret" && *k != "client_id")
        .collect();
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{MS_CLIENT}:{MS_SECRET}"))
    );
    let request = http()
        .post(&sim.microsoft().token)
        .header("authorization", basic)
        .form(&without_secret);
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("refresh_token").is_none(), "no offline_access");
}

#[tokio::test]
async fn refusals_carry_the_aadsts_envelope() {
    let sim = start().await;
    let code_a = code(&sim, MS_CLIENT, "ada", "openid").await;
    let other = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let (status, body) = exchange(&sim, &form(MS_CLIENT, &code_a, other)).await;
    assert_eq!(status, 400);
    assert_aadsts(&body, "invalid_grant", 501481);
    // The failed attempt burned the code.
    let (status, body) = exchange(&sim, &form(MS_CLIENT, &code_a, VERIFIER)).await;
    assert_eq!(status, 400);
    assert_aadsts(&body, "invalid_grant", 70000);

    let code_b = code(&sim, MS_CLIENT, "ada", "openid").await;
    let mut wrong_secret = form(MS_CLIENT, &code_b, VERIFIER);
    wrong_secret[2] = ("client_secret", "guess");
    let (status, body) = exchange(&sim, &wrong_secret).await;
    assert_eq!(status, 401);
    assert_aadsts(&body, "invalid_client", 7000215);

    let code_c = code(&sim, MS_CLIENT, "ada", "openid").await;
    let mut elsewhere = form(MS_CLIENT, &code_c, VERIFIER);
    elsewhere[4] = ("redirect_uri", "http://127.0.0.1:4000/other");
    let (status, body) = exchange(&sim, &elsewhere).await;
    assert_eq!(status, 400);
    assert_aadsts(&body, "invalid_grant", 50011);
}

#[tokio::test]
async fn a_json_body_is_refused() {
    let sim = start().await;
    let code = code(&sim, MS_CLIENT, "ada", "openid").await;
    let body: std::collections::HashMap<_, _> =
        form(MS_CLIENT, &code, VERIFIER).into_iter().collect();
    let (status, answer) = status_and_json(http().post(&sim.microsoft().token).json(&body)).await;
    assert_eq!(status, 400);
    assert_aadsts(&answer, "invalid_request", 900144);
}

#[tokio::test]
async fn a_personal_accounts_code_is_refused_at_the_organizations_token_endpoint() {
    let sim = start().await;
    let code = code(&sim, MS_CLIENT, "ada", "openid").await;
    let request = http()
        .post(sim.microsoft_tenant("organizations").token)
        .form(&form(MS_CLIENT, &code, VERIFIER));
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 400);
    assert_aadsts(&body, "invalid_grant", 50020);
}
