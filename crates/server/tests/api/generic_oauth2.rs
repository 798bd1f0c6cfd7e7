//! A provider of `kind = "oauth2"` from configuration (docs/providers.md): `corp`, the
//! simulator's standard OAuth 2.0 provider, configured by its endpoints and by JSON
//! Pointers into its nested user document (`{"data": {"id": 583231, "attributes": …}}`).

use crate::helpers::*;
use serde_json::json;
use social_login_simulator::SimUser;

#[tokio::test]
async fn the_nested_user_document_is_read_by_its_pointers_with_a_numeric_subject() {
    let app = spawn_app_with(Options::standard()).await;
    app.sim.add_user(
        SimUser::new("424242", "turing")
            .with_name("Alan Turing")
            .with_email("alan@example.com", true)
            .with_avatar_url("https://corp.example/avatars/alan.png"),
    );
    let alan = app.login_at("corp", "424242").await;
    let user = &alan["user"];
    assert_eq!(user["full_name"], "Alan Turing");
    assert_eq!(user["email"], "alan@example.com");
    assert_eq!(
        user["email_verified"], true,
        "\"true\" in mail_confirmed, vouched for"
    );
    assert_eq!(user["avatar_url"], "https://corp.example/avatars/alan.png");
    // The numeric id is the subject: the same person again, another one apart.
    let again = app.login_at("corp", "424242").await;
    assert_eq!(again["user"]["id"], user["id"]);
    let ada = app.login_at("corp", "583231").await;
    assert_ne!(ada["user"]["id"], user["id"]);
    app.stop().await;
}

#[tokio::test]
async fn id_tokens_of_an_oauth2_provider_are_not_offered() {
    let app = spawn_app_with(Options::standard()).await;
    let native = json!({"id_token": "a.b.c", "nonce": "n"});
    let response = app.post("/auth/oauth/corp/id-token", &native, None).await;
    assert_problem(response, 400, "IdTokenNotSupported").await;
    app.stop().await;
}
