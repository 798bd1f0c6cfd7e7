//! The simulated Sign in with Apple: what its dialect and hooks add to what every provider
//! does (see `dialects`): the form post and the first-login `user`, the response-mode
//! rules, strict redirect URIs, `code id_token`, and its discovery incident. Its token
//! endpoint is in `token`.

mod token;

use crate::support::fixtures::{APPLE, ada, config_for, start, start_with};
use crate::support::{NONCE, verified_claims};
use serde_json::{Value, json};
use social_login_simulator::{AppleKnobs, SimUser, SimulatorHandle};

/// An Apple-shaped subject (`001234.<32 hex>.1234`), so the id_token looks like Apple's.
pub const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";

/// Apple's Ada: its shape of subject, a name and a verified email.
pub async fn start_apple() -> SimulatorHandle {
    let ada = SimUser {
        id: SUB.to_owned(),
        ..ada()
    };
    start_with(config_for(&[APPLE], ada)).await
}

#[tokio::test]
async fn the_first_authorization_posts_code_state_and_the_user_json_and_later_ones_do_not() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let first = client.answer(&client.valid(APPLE.scope)).await;
    assert!(!first.get("code").unwrap().is_empty());
    assert_eq!(first.get("state"), Some("st"));
    assert_eq!(
        first.get("id_token"),
        None,
        "only asked for with code id_token"
    );
    let user: Value = serde_json::from_str(first.get("user").unwrap()).unwrap();
    assert_eq!(
        user,
        json!({"name": {"firstName": "Ada", "lastName": "Lovelace"}, "email": "ada@example.com"})
    );
    let again = client.answer(&client.valid(APPLE.scope)).await;
    assert_eq!(again.0.len(), 2, "code and state only: {again:?}");
}

#[tokio::test]
async fn the_form_posts_to_the_callback() {
    let sim = start(&[APPLE]).await;
    let client = APPLE.client(&sim);
    let html = client.page(&client.valid(APPLE.scope)).await;
    assert_eq!(sim.apple_form_post(&html).unwrap().action, APPLE.callback);
    assert!(html.contains("document.forms[0].submit()"));
}

#[tokio::test]
async fn scopes_need_form_post_and_without_them_the_code_may_come_back_in_the_query() {
    let client = APPLE.started().await;
    for mode in [None, Some("query"), Some("fragment")] {
        let response = client
            .authorize(&client.valid(APPLE.scope).with("response_mode", mode))
            .await;
        assert_eq!(response.status(), 400, "{mode:?}");
        assert!(response.headers().get("location").is_none());
        assert!(response.text().await.unwrap().contains("form_post"));
    }
    let answer = client.answer(&client.valid("")).await;
    assert!(answer.get("code").is_some());
    assert!(
        answer.get("user").is_none(),
        "no name or email without scopes"
    );
}

#[tokio::test]
async fn strict_redirect_uris_refuse_a_loopback_callback_as_real_apple_does() {
    let sim = start(&[APPLE]).await;
    sim.set_apple_knobs(AppleKnobs {
        strict_redirect_uris: true,
        ..AppleKnobs::default()
    });
    let client = APPLE.client(&sim);
    let response = client.authorize(&client.valid(APPLE.scope)).await;
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().contains("redirect"));
}

#[tokio::test]
async fn unknown_scopes_and_response_types_are_posted_back_as_errors() {
    let client = APPLE.started().await;
    let scope = client.valid("name email phone");
    assert_eq!(
        client.answer(&scope).await.get("error"),
        Some("invalid_scope")
    );
    let token = client.valid(APPLE.scope).set("response_type", "token");
    assert_eq!(
        client.answer(&token).await.get("error"),
        Some("unsupported_response_type")
    );
    let in_query = client.valid("").set("response_type", "code id_token");
    assert_eq!(
        client.authorize(&in_query).await.status(),
        400,
        "an id_token never goes in a query"
    );
}

#[tokio::test]
async fn code_id_token_posts_an_id_token_bound_to_the_nonce() {
    let sim = start_apple().await;
    let client = APPLE.client(&sim);
    let answer = client
        .answer(
            &client
                .valid(APPLE.scope)
                .set("response_type", "code id_token"),
        )
        .await;
    let claims = verified_claims(
        answer.get("id_token").unwrap(),
        APPLE.id,
        "https://appleid.apple.com",
    );
    assert_eq!(
        (claims["nonce"].as_str(), claims["sub"].as_str()),
        (Some(NONCE), Some(SUB))
    );
}

#[tokio::test]
async fn discovery_names_apples_issuer_unless_the_incident_knob_is_on() {
    let sim = start(&[APPLE]).await;
    let client = APPLE.client(&sim);
    let discovery = sim.apple().discovery;
    let (_, document) = client.get(&discovery, None).await;
    assert_eq!(
        document["token_endpoint_auth_methods_supported"],
        json!(["client_secret_post"])
    );
    assert_eq!(document["revocation_endpoint"], sim.apple().revoke);
    assert!(document.get("userinfo_endpoint").is_none());
    sim.set_apple_knobs(AppleKnobs {
        advertise_account_apple_issuer: true,
        ..AppleKnobs::default()
    });
    assert_eq!(
        client.get(&discovery, None).await.1["issuer"],
        "https://account.apple.com"
    );
}
