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
async fn a_stopping_service_is_unready_but_still_serving_for_its_shutdown_delay() {
    let app = spawn_app_tuned(|settings| settings.server.shutdown_delay_seconds = 2).await;
    let (http, healthz, readyz) = (app.http.clone(), app.url("/healthz"), app.url("/readyz"));
    let started = std::time::Instant::now();
    let stopping = tokio::spawn(app.stop());
    // The signal is handled at once; the door stays open for the delay.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let status = |url: String| {
        let http = http.clone();
        async move {
            http.get(url)
                .send()
                .await
                .map(|answer| answer.status().as_u16())
        }
    };
    assert_eq!(status(readyz.clone()).await.ok(), Some(503), "unready");
    assert_eq!(
        status(healthz.clone()).await.ok(),
        Some(200),
        "still serving"
    );
    stopping.await.unwrap();
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(2),
        "after the delay"
    );
    assert!(status(healthz).await.is_err(), "stopped accepting");
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
    // One too long or not plain ASCII is replaced by the service's own.
    for unsound in ["a".repeat(65), "trace me".into(), "trace-\u{e9}".into()] {
        let replaced = app
            .http
            .get(app.url("/healthz"))
            .header("x-request-id", unsound.as_bytes())
            .send()
            .await
            .unwrap();
        let id = replaced.headers()["x-request-id"].to_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{unsound:?}: {id}");
    }
    app.stop().await;
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_are_problem_details_too() {
    let app = spawn_app().await;
    assert_problem(app.get("/nope", None).await, 404, "NotFound").await;
    assert_problem(app.delete("/healthz", None).await, 405, "MethodNotAllowed").await;
    app.stop().await;
}
