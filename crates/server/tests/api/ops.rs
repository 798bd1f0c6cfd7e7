//! Operations endpoints: health, readiness, metrics, OpenAPI, request ids.

use crate::helpers::*;
use serde_json::Value;

#[tokio::test]
async fn health_and_readiness_answer() {
    let app = spawn_app().await;
    assert_eq!(app.get("/healthz", None).await.status(), 200);
    assert_eq!(app.get("/readyz", None).await.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn metrics_count_requests_by_route_in_prometheus_format() {
    let app = spawn_app().await;
    app.get("/auth/oauth/github/authorize", None).await;
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    assert!(metrics.contains("http_requests_total"), "{metrics}");
    assert!(metrics.contains("route=\"/auth/oauth/{provider}/authorize\""));
    app.stop().await;
}

#[tokio::test]
async fn the_openapi_document_is_3_1_and_lists_every_endpoint() {
    let app = spawn_app().await;
    let doc: Value = app.get("/openapi.json", None).await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/auth/oauth/{provider}/authorize",
        "/auth/oauth/{provider}/callback",
        "/auth/oauth/{provider}/connect",
        "/auth/oauth/{provider}/id-token",
        "/auth/oauth/{provider}/id-token/connect",
        "/auth/oauth/accounts",
        "/auth/oauth/{provider}/disconnect",
        "/auth/register",
        "/auth/login",
        "/auth/refresh",
        "/auth/logout",
        "/users/me",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    ] {
        assert!(paths.contains_key(path), "{path} missing");
    }
    app.stop().await;
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let response = app.get("/healthz", None).await;
    assert!(!response.headers()["x-request-id"].is_empty());
    let given = app
        .http
        .get(app.url("/healthz"))
        .header("x-request-id", "trace-me-123")
        .send()
        .await
        .unwrap();
    assert_eq!(given.headers()["x-request-id"], "trace-me-123");
    app.stop().await;
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_are_problem_details_too() {
    let app = spawn_app().await;
    assert_problem(app.get("/nope", None).await, 404, "NotFound").await;
    assert_problem(app.delete("/healthz", None).await, 405, "MethodNotAllowed").await;
    app.stop().await;
}
