//! Every response that carries a token says `Cache-Control: no-store` (and `Pragma:
//! no-cache` for HTTP/1.0 caches), so no browser, proxy or CDN keeps a copy of a session.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login_simulator::Provider;

/// Asserts the answer's status, and that it tells every cache not to keep it.
fn assert_not_stored(response: &reqwest::Response, status: StatusCode, what: &str) {
    assert_eq!(response.status(), status, "{what}");
    let headers = response.headers();
    assert_eq!(
        headers.get("cache-control").map(|v| v.to_str().unwrap()),
        Some("no-store"),
        "{what}"
    );
    assert_eq!(
        headers.get("pragma").map(|v| v.to_str().unwrap()),
        Some("no-cache"),
        "{what}"
    );
}

#[tokio::test]
async fn register_login_and_refresh_answers_are_never_stored() {
    let app = spawn_app().await;
    let credentials = json!({"email": "pat@example.com", "password": PASSWORD});
    let registered = app.post("/auth/register", &credentials, None).await;
    assert_not_stored(&registered, StatusCode::CREATED, "register");

    let login = app.post("/auth/login", &credentials, None).await;
    assert_not_stored(&login, StatusCode::OK, "login");
    let login: Value = login.json().await.unwrap();

    let refresh = json!({"refresh_token": login["refresh_token"]});
    let refreshed = app.post("/auth/refresh", &refresh, None).await;
    assert_not_stored(&refreshed, StatusCode::OK, "refresh");
    app.stop().await;
}

#[tokio::test]
async fn callback_and_id_token_sign_in_answers_are_never_stored() {
    let app = spawn_app().await;
    let callback = app.login_response("583231").await;
    assert_not_stored(&callback, StatusCode::OK, "callback");

    let body = app.native_body(Provider::Google, &grace());
    let signed_in = app.native_sign_in("google", &body).await;
    assert_not_stored(&signed_in, StatusCode::OK, "id-token sign-in");
    app.stop().await;
}

#[tokio::test]
async fn the_public_key_set_stays_cacheable() {
    let app = spawn_app().await;
    let jwks = app.get("/.well-known/jwks.json", None).await;
    assert_eq!(jwks.headers()["cache-control"], "public, max-age=300");
    assert!(jwks.headers().get("pragma").is_none());
    app.stop().await;
}
