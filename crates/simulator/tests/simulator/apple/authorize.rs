//! The simulated Apple's authorize endpoint and metadata: form_post, the first-login
//! `user` field, the response_mode rule, redirect and PKCE checks, discovery and keys.

use super::support::*;
use serde_json::{Value, json};
use social_login_simulator::{AppleKnobs, Endpoint, Provider, TEST_KEY_A};

#[tokio::test]
async fn the_first_authorization_posts_code_state_and_the_user_json() {
    let sim = start().await;
    let form = form_post(&sim, &authorize_params()).await;
    assert_eq!(form.action, CALLBACK);
    assert!(!form.field("code").unwrap().is_empty());
    assert_eq!(form.field("state"), Some("st"));
    assert_eq!(
        form.field("id_token"),
        None,
        "only asked for with code id_token"
    );
    let user: Value = serde_json::from_str(form.field("user").unwrap()).unwrap();
    assert_eq!(
        user,
        json!({"name": {"firstName": "Ada", "lastName": "Lovelace"}, "email": "ada@example.com"})
    );
    let record = &sim.requests()[0];
    assert_eq!(record.provider, Some(Provider::Apple));
    assert_eq!(record.endpoint, Some(Endpoint::Authorize));
    assert!(record.nonce_present);
    assert_eq!(record.code_challenge.as_deref(), Some(CHALLENGE));
}

#[tokio::test]
async fn later_authorizations_of_the_same_user_and_client_carry_no_user_field() {
    let sim = start().await;
    form_post(&sim, &authorize_params()).await;
    let again = form_post(&sim, &authorize_params()).await;
    assert!(again.field("code").is_some());
    assert_eq!(again.field("user"), None);
    assert_eq!(again.fields.len(), 2, "code and state only");
}

#[tokio::test]
async fn scopes_without_form_post_are_refused_with_an_error_page() {
    let sim = start().await;
    for mode in [None, Some("query"), Some("fragment")] {
        let params = with(&authorize_params(), "response_mode", mode);
        let response = authorize_response(&sim, &params).await;
        assert_eq!(response.status(), 400, "{mode:?}");
        assert!(response.headers().get("location").is_none());
        assert!(response.text().await.unwrap().contains("form_post"));
    }
}

#[tokio::test]
async fn without_scopes_the_code_may_come_back_in_the_query() {
    let sim = start().await;
    let params = with(
        &with(&authorize_params(), "scope", None),
        "response_mode",
        None,
    );
    let response = authorize_response(&sim, &params).await;
    assert_eq!(response.status(), 302);
    let location = url::Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    let query: Vec<(String, String)> = location.query_pairs().into_owned().collect();
    assert!(query.iter().any(|(k, _)| k == "code"));
    assert!(
        !query.iter().any(|(k, _)| k == "user"),
        "no name or email without scopes"
    );
}

#[tokio::test]
async fn an_unknown_client_or_unregistered_callback_gets_an_error_page() {
    let sim = start().await;
    let unknown = with(&authorize_params(), "client_id", Some("com.nobody.web"));
    assert_eq!(authorize_response(&sim, &unknown).await.status(), 400);
    for callback in [Some("http://127.0.0.1:4000/auth/callback/apple/x"), None] {
        let params = with(&authorize_params(), "redirect_uri", callback);
        assert_eq!(authorize_response(&sim, &params).await.status(), 400);
    }
}

#[tokio::test]
async fn strict_redirect_uris_refuse_a_loopback_callback_as_real_apple_does() {
    let sim = start().await;
    sim.set_apple_knobs(AppleKnobs {
        strict_redirect_uris: true,
        ..AppleKnobs::default()
    });
    let response = authorize_response(&sim, &authorize_params()).await;
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().contains("redirect"));
}

#[tokio::test]
async fn a_cancelled_sign_in_posts_user_cancelled_authorize_with_the_state() {
    let sim = start().await;
    let mut params = authorize_params();
    params.push(("sim_deny", "1"));
    let form = form_post(&sim, &params).await;
    assert_eq!(form.field("error"), Some("user_cancelled_authorize"));
    assert_eq!(form.field("state"), Some("st"));
    assert_eq!(form.field("code"), None);
}

#[tokio::test]
async fn pkce_other_than_s256_and_unknown_scopes_are_posted_back_as_errors() {
    let sim = start().await;
    let plain = with(&authorize_params(), "code_challenge_method", Some("plain"));
    let form = form_post(&sim, &plain).await;
    assert_eq!(form.field("error"), Some("invalid_request"));
    let scope = with(&authorize_params(), "scope", Some("name email phone"));
    assert_eq!(
        form_post(&sim, &scope).await.field("error"),
        Some("invalid_scope")
    );
    let token = with(&authorize_params(), "response_type", Some("token"));
    assert_eq!(
        form_post(&sim, &token).await.field("error"),
        Some("unsupported_response_type")
    );
}

#[tokio::test]
async fn code_id_token_posts_an_id_token_bound_to_the_nonce() {
    let sim = start().await;
    let params = with(&authorize_params(), "response_type", Some("code id_token"));
    let form = form_post(&sim, &params).await;
    let claims = id_token_claims(form.field("id_token").unwrap());
    assert_eq!(claims["nonce"], NONCE);
    assert_eq!(claims["sub"], SUB);
}

#[tokio::test]
async fn discovery_names_apples_issuer_unless_the_incident_knob_is_on() {
    let sim = start().await;
    let get = |url: String| async move {
        let response = http().get(url).send().await.unwrap();
        response.json::<Value>().await.unwrap()
    };
    let document = get(sim.apple().discovery).await;
    assert_eq!(document["issuer"], "https://appleid.apple.com");
    assert_eq!(
        document["token_endpoint_auth_methods_supported"],
        json!(["client_secret_post"])
    );
    assert!(document.get("userinfo_endpoint").is_none());
    sim.set_apple_knobs(AppleKnobs {
        advertise_account_apple_issuer: true,
        ..AppleKnobs::default()
    });
    let document = get(sim.apple().discovery).await;
    assert_eq!(document["issuer"], "https://account.apple.com");

    let keys = get(sim.apple().jwks).await;
    assert_eq!(keys["keys"][0]["kid"], TEST_KEY_A.kid);
}
