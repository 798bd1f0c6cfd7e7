//! The database goes away under a running service and comes back (docs/api.md#errors): meanwhile
//! readiness and every endpoint that needs the database answer 503 `ServiceUnavailable`
//! (never 500, never a 4xx); afterwards the same process serves again, no restart.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::json;
use social_login_test_support::{FaultProxy, postgres_admin_url};
use std::time::{Duration, Instant};

/// Longest the service may take to notice the database is back.
const RECOVERY_WITHIN: Duration = Duration::from_secs(10);

#[tokio::test]
async fn while_the_database_is_away_requests_are_503_and_the_service_recovers_without_a_restart() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let proxy = FaultProxy::in_front_of(&admin_url).await.unwrap();
    let app = spawn_app_with_database_via(Options::default(), &proxy).await;
    let pat = app.register("pat@example.com").await;
    app.login("583231").await;

    proxy.cut();
    assert_problem(app.get("/readyz", None).await, 503, "ServiceUnavailable").await;
    let register = app
        .post(
            "/auth/register",
            &json!({"email": "lee@example.com", "password": PASSWORD}),
            None,
        )
        .await;
    assert_problem(register, 503, "ServiceUnavailable").await;
    let password_login = app.password_login("pat@example.com", PASSWORD).await;
    assert_problem(password_login, 503, "ServiceUnavailable").await;
    let refresh = app.refresh(&pat["refresh_token"]).await;
    assert_problem(refresh, 503, "ServiceUnavailable").await;
    let me = app.get("/users/me", Some(&token(&pat))).await;
    assert_problem(me, 503, "ServiceUnavailable").await;
    // The state store is in memory: authorize and the provider still work, so the GitHub
    // callback reaches the point where it needs the database.
    assert_problem(
        app.login_response("583231").await,
        503,
        "ServiceUnavailable",
    )
    .await;
    assert_eq!(app.get("/healthz", None).await.status(), StatusCode::OK);

    proxy.restore();
    let deadline = Instant::now() + RECOVERY_WITHIN;
    while app.get("/readyz", None).await.status() != StatusCode::OK {
        assert!(
            Instant::now() < deadline,
            "not ready {RECOVERY_WITHIN:?} after the database came back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    app.register("lee@example.com").await;
    let login = app.password_login("pat@example.com", PASSWORD).await;
    assert_eq!(login.status(), StatusCode::OK);
    let github = app.login("583231").await;
    assert_eq!(github["is_new_user"], false);
    let me = app.get("/users/me", Some(&token(&github))).await;
    assert_eq!(me.status(), StatusCode::OK);
    app.stop().await;
}
