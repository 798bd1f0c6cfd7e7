//! After the exchange: the refresh grant (no new refresh token) and revocation, which also
//! makes the next authorization a first one again.

use super::support::*;
use serde_json::Value;

async fn tokens(sim: &social_login_simulator::SimulatorHandle) -> Value {
    let code = code(sim).await;
    let (status, body) = post_token(sim, &token_form(&code, &secret())).await;
    assert_eq!(status, 200, "{body}");
    body
}

fn refresh_form(refresh_token: &str) -> Vec<(String, String)> {
    [
        ("grant_type", "refresh_token"),
        ("client_id", CLIENT_ID),
        ("client_secret", &secret()),
        ("refresh_token", refresh_token),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect()
}

async fn revoke(sim: &social_login_simulator::SimulatorHandle, token: &str) -> u16 {
    let form = [
        ("client_id", CLIENT_ID),
        ("client_secret", &secret()),
        ("token", token),
        ("token_type_hint", "refresh_token"),
    ];
    let response = http()
        .post(&sim.apple().revoke)
        .form(&form)
        .send()
        .await
        .unwrap();
    response.status().as_u16()
}

#[tokio::test]
async fn the_refresh_grant_answers_a_new_access_token_but_no_refresh_token() {
    let sim = start().await;
    let first = tokens(&sim).await;
    let refresh_token = first["refresh_token"].as_str().unwrap();
    let (status, body) = post_token(&sim, &refresh_form(refresh_token)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("refresh_token").is_none());
    assert_ne!(body["access_token"], first["access_token"]);
    let claims = id_token_claims(body["id_token"].as_str().unwrap());
    assert_eq!(claims["sub"], SUB);
    assert!(
        claims.get("nonce").is_none(),
        "no authorization request, no nonce"
    );
}

#[tokio::test]
async fn a_revoked_refresh_token_is_invalid_grant_and_consent_is_asked_again() {
    let sim = start().await;
    let first_form = form_post(&sim, &authorize_params()).await;
    assert!(first_form.field("user").is_some());
    let code = first_form.field("code").unwrap();
    let (_, body) = post_token(&sim, &token_form(code, &secret())).await;
    let refresh_token = body["refresh_token"].as_str().unwrap();
    assert!(
        form_post(&sim, &authorize_params())
            .await
            .field("user")
            .is_none()
    );

    assert_eq!(revoke(&sim, refresh_token).await, 200);
    let revoked = &sim.revocations()[0];
    assert_eq!(revoked.token, refresh_token);
    assert_eq!(revoked.hint.as_deref(), Some("refresh_token"));
    assert_eq!(
        revoked.kind,
        Some(social_login_simulator::TokenKind::Refresh)
    );
    let (status, body) = post_token(&sim, &refresh_form(refresh_token)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    let again = form_post(&sim, &authorize_params()).await;
    assert!(
        again.field("user").is_some(),
        "Apple posts the name again (TN3194)"
    );
}

#[tokio::test]
async fn revoking_an_unknown_token_is_fine_but_a_bad_secret_is_not() {
    let sim = start().await;
    assert_eq!(revoke(&sim, "r-never-issued").await, 200);
    let form = [
        ("client_id", CLIENT_ID),
        ("client_secret", "static"),
        ("token", "x"),
    ];
    let response = http()
        .post(&sim.apple().revoke)
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}
