//! The REST API: User-Agent gate, token schemes, the emails scope.

use super::support::*;
use social_login_simulator::SimEmail;

#[tokio::test]
async fn the_profile_is_served_for_a_bearer_token() {
    let sim = start().await;
    let token = access_token(&sim, "read:user user:email").await;
    let response = http()
        .get(&sim.github().user)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["id"], 583231);
    assert_eq!(body["login"], "ada");
    assert_eq!(body["name"], "Ada Lovelace");
    assert!(body["email"].is_null(), "the primary email is private");
}

#[tokio::test]
async fn the_legacy_token_scheme_is_accepted() {
    let sim = start().await;
    let token = access_token(&sim, "read:user").await;
    let response = http()
        .get(&sim.github().user)
        .header("authorization", format!("token {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn a_request_without_user_agent_is_forbidden() {
    let sim = start().await;
    let token = access_token(&sim, "read:user").await;
    let bare = reqwest::Client::new();
    let response = bare
        .get(&sim.github().user)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn an_unknown_or_missing_token_is_unauthorized() {
    let sim = start().await;
    let unknown = http()
        .get(&sim.github().user)
        .bearer_auth("gho_unknown")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 401);
    let body: serde_json::Value = unknown.json().await.unwrap();
    assert_eq!(body["message"], "Bad credentials");
    let missing = http().get(&sim.github().emails).send().await.unwrap();
    assert_eq!(missing.status(), 401);
}

#[tokio::test]
async fn emails_are_listed_with_their_flags() {
    let sim = start().await;
    let token = access_token(&sim, "read:user user:email").await;
    let emails: Vec<SimEmail> = http()
        .get(&sim.github().emails)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(emails[0].email, "ada@example.com");
    assert!(emails[0].primary && emails[0].verified);
    assert!(
        emails
            .iter()
            .any(|e| e.email.ends_with("@users.noreply.github.com"))
    );
}

#[tokio::test]
async fn emails_are_hidden_without_the_email_scope() {
    let sim = start().await;
    let token = access_token(&sim, "read:user").await;
    let response = http()
        .get(&sim.github().emails)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn a_revoked_token_no_longer_works() {
    let sim = start().await;
    let token = access_token(&sim, "read:user").await;
    let url = format!(
        "{}/github/api/applications/{CLIENT_ID}/token",
        sim.base_url()
    );
    let without_basic = http()
        .delete(&url)
        .json(&serde_json::json!({"access_token": token}))
        .send()
        .await
        .unwrap();
    assert_eq!(without_basic.status(), 404);
    let revoked = http()
        .delete(&url)
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&serde_json::json!({"access_token": token}))
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), 204);
    let after = http()
        .get(&sim.github().user)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), 401);
}
