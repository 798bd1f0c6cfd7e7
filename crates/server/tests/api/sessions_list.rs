//! The caller's own sessions (docs/api.md#your-sessions): listed live, the caller's own marked,
//! and ended one at a time: an ended session's refresh token stops working at once.

use crate::helpers::{assert_problem_in, spawn_app, token};
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn the_caller_lists_their_live_sessions_and_ends_one() {
    let app = spawn_app().await;
    let first = app.register("ada@example.com").await;
    let second = app
        .password_login("ada@example.com", crate::helpers::PASSWORD)
        .await;
    assert_eq!(second.status(), StatusCode::OK);
    let second: Value = second.json().await.unwrap();
    let bearer = token(&second);

    let listed = app.get_json("/users/me/sessions", Some(&bearer)).await;
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    let current: Vec<&Value> = listed.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1, "exactly the caller's own is current");
    assert!(
        listed
            .iter()
            .all(|session| session["provider"] == "password")
    );
    for field in ["id", "created_at", "last_used_at"] {
        assert!(listed[0][field].is_string(), "{field}");
    }
    let other = listed.iter().find(|s| s["current"] == false).unwrap();
    let other_id = other["id"].as_str().unwrap();

    let ended = app
        .delete(&format!("/users/me/sessions/{other_id}"), Some(&bearer))
        .await;
    assert_eq!(ended.status(), StatusCode::NO_CONTENT);
    app.assert_refresh_refused(&first["refresh_token"]).await;
    let left = app.get_json("/users/me/sessions", Some(&bearer)).await;
    assert_eq!(left.as_array().unwrap().len(), 1);
    assert_eq!(left[0]["current"], true);
    let events = app.events(&bearer).await;
    assert_eq!(events[0]["type"], "session.logout");

    // Ended already, unknown, or not an id at all: 404.
    for gone in [other_id, "0190f3c4-8a8e-7c4e-9f51-3c1d2a4b5e6f", "nonsense"] {
        let refused = app
            .delete(&format!("/users/me/sessions/{gone}"), Some(&bearer))
            .await;
        assert_problem_in(gone, refused, 404, "NotFound").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn another_users_session_is_not_found_and_goes_on() {
    let app = spawn_app().await;
    let ada = app.login("583231").await;
    let ada_bearer = token(&ada);
    let (_, grace) = app.signed_up("grace@example.org").await;
    let adas = app.get_json("/users/me/sessions", Some(&ada_bearer)).await;
    assert_eq!(adas[0]["provider"], "github");
    let adas_id = adas[0]["id"].as_str().unwrap();

    let refused = app
        .delete(&format!("/users/me/sessions/{adas_id}"), Some(&grace))
        .await;
    assert_problem_in("another user's", refused, 404, "NotFound").await;
    let refreshed = app.refresh(&ada["refresh_token"]).await;
    assert_eq!(refreshed.status(), StatusCode::OK, "Ada's session goes on");
    let anonymous = app.get("/users/me/sessions", None).await;
    assert_problem_in("no bearer", anonymous, 401, "Unauthorized").await;
    app.stop().await;
}
