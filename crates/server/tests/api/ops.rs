//! Operations endpoints: health, readiness, metrics, OpenAPI, request ids.

use crate::helpers::*;

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
