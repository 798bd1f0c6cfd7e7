//! A native id_token sign-in of an account that a code-flow login linked keeps the provider
//! tokens that login stored: disconnect and account deletion still revoke the grant at the
//! provider (docs/api.md, account deletion and provider revocation).

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;
use social_login_simulator::Provider;

/// Ada signs in on her phone with the id_token Google Sign-In gave the app.
async fn native_google_sign_in(app: &TestApp) -> Value {
    let body = app.native_body(Provider::Google, &ada());
    let response = app.native_sign_in("google", &body).await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test]
async fn deleting_after_a_native_sign_in_still_revokes_the_code_flows_grant() {
    let app = spawn_app().await;
    let web = ok_json(app.login_response_at("google", "583231").await).await;
    let phone = native_google_sign_in(&app).await;
    assert_eq!(phone["user"]["id"], web["user"]["id"], "the same user");

    app.delete_account(&token(&phone)).await;
    app.assert_one_live_revocation(Provider::Google);
    app.stop().await;
}

#[tokio::test]
async fn disconnecting_after_a_native_sign_in_still_revokes_the_code_flows_grant() {
    let app = spawn_app().await;
    let (pat, _) = app.pat_linked("google").await;
    let phone = native_google_sign_in(&app).await;
    assert_eq!(phone["user"]["id"], pat["user"]["id"]);

    let unlinked = app.disconnect("google", &token(&phone)).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    app.assert_one_live_revocation(Provider::Google);
    app.stop().await;
}
