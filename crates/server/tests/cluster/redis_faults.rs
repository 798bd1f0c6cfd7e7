//! Redis goes away and comes back: what needs it answers 503, what does not keeps working,
//! and the service recovers by itself, without a restart.

use super::deployment::{Database, Deployment, States, or_skip};
use super::flows::{Browser, assert_problem_code};
use reqwest::StatusCode;
use social_login_simulator::SimUser;
use social_login_test_support::FaultProxy;
use std::time::Duration;

#[tokio::test]
async fn while_redis_is_down_callbacks_are_503_and_they_work_again_when_it_returns() {
    let ada = SimUser::new("583231", "ada").with_email("ada@example.com", true);
    let mut deployment =
        or_skip!(Deployment::new(Database::Sqlite, States::Redis, vec![ada]).await);
    let proxy = FaultProxy::in_front_of(deployment.redis_url())
        .await
        .expect("the fault proxy starts");
    deployment.set_redis_url(proxy.route(deployment.redis_url()));
    let instance = deployment.spawn_instance();
    let browser = Browser::new();
    let base = instance.base();
    let ready = || async { browser.get(format!("{base}/readyz"), None).await.status() };
    assert_eq!(ready().await, StatusCode::OK);

    proxy.cut();
    assert_eq!(ready().await, StatusCode::SERVICE_UNAVAILABLE);
    // Issuing a state value needs no Redis: logins can still start.
    let approval = browser.approval(base, "github", None, "583231").await;
    let refused = browser.callback(base, "github", &approval).await;
    assert_problem_code(refused, 503, "ServiceUnavailable").await;

    proxy.restore();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while ready().await != StatusCode::OK {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not ready 10 s after Redis came back:\n{}",
            instance.recent_logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The refused callback spent nothing (not the state, not the code): it simply works now.
    let response = browser.callback(base, "github", &approval).await;
    assert_eq!(response.status(), StatusCode::OK);
}
