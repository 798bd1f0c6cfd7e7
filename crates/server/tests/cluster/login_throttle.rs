//! The per-account password throttle across instances sharing Redis: failures counted on
//! one instance count on the other, and the lock holds on both.

use super::deployment::{or_skip, two_instances};
use super::flows::{Browser, PASSWORD, assert_problem_code};
use reqwest::StatusCode;
use serde_json::json;

async fn attempt(browser: &Browser, base: &str, password: &str) -> reqwest::Response {
    browser
        .post(
            format!("{base}/auth/login"),
            &json!({"email": "pat@example.com", "password": password}),
            None,
        )
        .await
}

#[tokio::test]
async fn wrong_passwords_on_one_instance_count_on_the_other() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(Vec::new(), "").await);
    assert_eq!(
        browser.register(a.base(), "pat@example.com").await.status(),
        StatusCode::CREATED
    );
    // Five failures, spread over both instances.
    for base in [a.base(), b.base(), a.base(), b.base(), a.base()] {
        let refused = attempt(&browser, base, "not the password").await;
        assert_problem_code(refused, 401, "InvalidCredentials").await;
    }
    for instance in [&b, &a] {
        let locked = attempt(&browser, instance.base(), PASSWORD).await;
        assert!(locked.headers().contains_key("retry-after"));
        assert_problem_code(locked, 429, "RateLimited").await;
    }
}
