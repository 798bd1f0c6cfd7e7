//! `GET /users/me/events` (docs/api.md#webhooks): the caller's own events, newest first, with the
//! client IP, and never a token.

use crate::helpers::{PASSWORD, assert_problem, spawn_app, token};
use reqwest::StatusCode;
use serde_json::Value;

async fn events(app: &crate::helpers::TestApp, bearer: &str) -> Vec<Value> {
    let response = app.get("/users/me/events", Some(bearer)).await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_users_logins_links_and_logout_are_listed_newest_first_for_them_only() {
    let app = spawn_app().await;
    let (ada, bearer) = app.signed_in("583231").await;
    let pat = app.register("pat@example.com").await;

    let logout = app.logout(&ada["refresh_token"]).await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    let listed = events(&app, &bearer).await;
    assert_eq!(
        types(&listed),
        ["session.logout", "user.login", "user.registered"]
    );
    for event in &listed {
        let fields: Vec<&str> = event
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(fields.len(), 5, "{event}");
        assert_eq!(event["ip"], "127.0.0.1", "the TCP peer, no proxy trusted");
        assert!(event["id"].as_str().is_some_and(|id| id.len() == 36));
        assert!(
            event["created_at"]
                .as_str()
                .is_some_and(|t| t.contains('T'))
        );
    }
    assert_eq!(listed[1]["provider"], "github");
    assert_eq!(listed[0]["provider"], Value::Null);
    let text = serde_json::to_string(&listed).unwrap();
    assert!(!text.contains(ada["refresh_token"].as_str().unwrap()));

    // Pat's own events only: a password registration, then its login.
    let pats = events(&app, &token(&pat)).await;
    assert_eq!(types(&pats), ["user.login", "user.registered"]);
    let login = app.password_login("pat@example.com", PASSWORD).await;
    assert_eq!(login.status(), StatusCode::OK);
    assert_eq!(events(&app, &token(&pat)).await.len(), 3);

    assert_problem(app.get("/users/me/events", None).await, 401, "Unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn connecting_and_disconnecting_are_events_of_the_caller() {
    let app = spawn_app().await;
    let (_, bearer) = app.pat_linked("github").await;
    let unlinked = app.disconnect("github", &bearer).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let listed = events(&app, &bearer).await;
    assert_eq!(types(&listed)[..2], ["account.unlinked", "account.linked"]);
    assert!(listed[..2].iter().all(|e| e["provider"] == "github"));
    app.stop().await;
}
