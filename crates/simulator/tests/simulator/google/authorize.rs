//! The simulated Google's browser-facing and metadata routes: authorize, discovery, certs,
//! userinfo, and the id_token knobs of the control API.

use super::support::*;
use crate::github::support::{CHALLENGE, VERIFIER, http, location, redirect_query};
use social_login_simulator::{Endpoint, Provider, TEST_KEY_A};

#[tokio::test]
async fn a_valid_authorization_redirects_with_a_code_and_records_the_nonce() {
    let sim = start_google().await;
    let response = google_authorize(&sim, &authorize_params("openid email")).await;
    assert_eq!(response.status(), 302);
    assert!(location(&response).as_str().starts_with(G_CALLBACK));
    let query = redirect_query(&response);
    assert_eq!(query["state"], "st");
    assert!(!query["code"].is_empty());
    let record = &sim.requests()[0];
    assert_eq!(record.provider, Some(Provider::Google));
    assert!(record.nonce_present);
    assert_eq!(record.code_challenge.as_deref(), Some(CHALLENGE));
}

#[tokio::test]
async fn an_unknown_client_or_callback_gets_an_error_page_not_a_redirect() {
    let sim = start_google().await;
    let mut unknown_client = authorize_params("openid");
    unknown_client[0] = ("client_id", "nobody");
    assert_eq!(google_authorize(&sim, &unknown_client).await.status(), 401);

    // Google matches the redirect URI exactly: no sub-path, no missing one.
    for callback in [
        Some("http://127.0.0.1:4000/auth/callback/google/x"),
        Some("http://127.0.0.1:4000/auth/callback/googl"),
        None,
    ] {
        let mut params = without(&authorize_params("openid"), "redirect_uri");
        params.extend(callback.map(|c| ("redirect_uri", c)));
        assert_eq!(google_authorize(&sim, &params).await.status(), 400);
    }
}

#[tokio::test]
async fn pkce_plain_is_accepted_and_an_unknown_method_refused() {
    let sim = start_google().await;
    let mut plain = without(&authorize_params("openid"), "code_challenge_method");
    plain.retain(|(k, _)| *k != "code_challenge");
    plain.push(("code_challenge", VERIFIER));
    plain.push(("code_challenge_method", "plain"));
    let response = google_authorize(&sim, &plain).await;
    assert!(redirect_query(&response).contains_key("code"));

    let mut unknown = without(&authorize_params("openid"), "code_challenge_method");
    unknown.push(("code_challenge_method", "S512"));
    let response = google_authorize(&sim, &unknown).await;
    assert_eq!(redirect_query(&response)["error"], "invalid_request");
}

#[tokio::test]
async fn a_missing_scope_or_wrong_response_type_is_redirected_as_an_error() {
    let sim = start_google().await;
    let no_scope = without(&authorize_params("openid"), "scope");
    let response = google_authorize(&sim, &no_scope).await;
    assert_eq!(redirect_query(&response)["error"], "invalid_request");

    let mut token_flow = without(&authorize_params("openid"), "response_type");
    token_flow.push(("response_type", "token"));
    let response = google_authorize(&sim, &token_flow).await;
    assert_eq!(
        redirect_query(&response)["error"],
        "unsupported_response_type"
    );
}

#[tokio::test]
async fn discovery_names_the_simulated_endpoints_and_the_certs_list_the_key() {
    let sim = start_google().await;
    let endpoints = sim.google();
    let (status, discovery) = send_json(http().get(&endpoints.discovery)).await;
    assert_eq!(status, 200);
    assert_eq!(discovery["issuer"], endpoints.issuer);
    assert_eq!(discovery["issuer"], format!("{}/google", sim.base_url()));
    assert_eq!(discovery["token_endpoint"], endpoints.token);
    assert_eq!(discovery["jwks_uri"], endpoints.jwks);
    assert_eq!(
        discovery["id_token_signing_alg_values_supported"][0],
        "RS256"
    );

    let (_, certs) = send_json(http().get(&endpoints.jwks)).await;
    let keys = certs["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["kid"], TEST_KEY_A.kid);
    assert_eq!(keys[0]["n"], TEST_KEY_A.n);
    assert!(keys[0].get("d").is_none(), "no private part is published");
    let endpoints_seen: Vec<_> = sim.requests().iter().map(|r| r.endpoint).collect();
    assert_eq!(
        endpoints_seen,
        [Some(Endpoint::Discovery), Some(Endpoint::Jwks)]
    );
}

#[tokio::test]
async fn a_configured_issuer_replaces_the_default_one() {
    let sim = crate::github::support::start_with(
        google_config().with_google_issuer("accounts.google.com"),
    )
    .await;
    assert_eq!(sim.google().issuer, "accounts.google.com");
    let (_, discovery) = send_json(http().get(&sim.google().discovery)).await;
    assert_eq!(discovery["issuer"], "accounts.google.com");
}

#[tokio::test]
async fn userinfo_answers_a_live_bearer_token_only() {
    let sim = start_google().await;
    let code = google_code(&sim, "openid email profile").await;
    let (_, tokens) = send_json(form_post(&sim, &token_form(&code))).await;
    let access_token = tokens["access_token"].as_str().unwrap();

    let (status, profile) =
        send_json(http().get(&sim.google().userinfo).bearer_auth(access_token)).await;
    assert_eq!(status, 200);
    assert_eq!(profile["sub"], "583231");
    assert_eq!(profile["email"], "ada@example.com");
    assert_eq!(profile["email_verified"], true);
    assert_eq!(profile["given_name"], "Ada");

    let (status, body) = send_json(http().get(&sim.google().userinfo).bearer_auth("ya29.x")).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"], "invalid_request");
    let (status, _) = send_json(http().get(&sim.google().userinfo)).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn id_token_faults_and_key_rotation_are_driven_over_http_too() {
    let sim = start_google().await;
    let control = |path: &str| format!("{}/_control/{path}", sim.base_url());
    let posted = http()
        .post(control("id_token_fault"))
        .json(&serde_json::json!({"provider": "google", "fault": "unknown_kid"}))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 204);
    let code = google_code(&sim, "openid").await;
    let (_, tokens) = send_json(form_post(&sim, &token_form(&code))).await;
    let header = jsonwebtoken::decode_header(tokens["id_token"].as_str().unwrap()).unwrap();
    assert_eq!(header.kid.as_deref(), Some("sim-key-unknown"));

    let rotated = http()
        .post(control("rotate_signing_key"))
        .send()
        .await
        .unwrap();
    assert_eq!(rotated.status(), 204);
    let cleared = http().delete(control("faults")).send().await.unwrap();
    assert_eq!(cleared.status(), 204);
    let code = google_code(&sim, "openid").await;
    let (_, tokens) = send_json(form_post(&sim, &token_form(&code))).await;
    let header = jsonwebtoken::decode_header(tokens["id_token"].as_str().unwrap()).unwrap();
    assert_eq!(header.kid.as_deref(), Some("sim-key-b"));
}
