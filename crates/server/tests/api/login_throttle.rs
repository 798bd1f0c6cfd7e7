//! The per-account throttle of password logins over HTTP (docs/decisions.md): five wrong
//! passwords for one email, and the next attempt is 429 with `Retry-After`, the right
//! password included; unknown emails are answered the same; other accounts are untouched.

use crate::helpers::*;

async fn log_in(app: &TestApp, email: &str, password: &str) -> reqwest::Response {
    app.password_login(email, password).await
}

/// Five wrong passwords for `email`, each answered as a wrong password.
async fn five_failures(app: &TestApp, email: &str) {
    for _ in 0..5 {
        let refused = log_in(app, email, "not the password").await;
        assert_problem(refused, 401, "InvalidCredentials").await;
    }
}

/// The `Retry-After` of a 429 `RateLimited`, in seconds.
async fn locked_for(response: reqwest::Response) -> u64 {
    let retry_after = response
        .headers()
        .get("retry-after")
        .expect("a 429 says when to retry")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_problem(response, 429, "RateLimited").await;
    retry_after
}

#[tokio::test]
async fn after_five_wrong_passwords_the_right_one_is_429_until_the_window_passes() {
    let app = spawn_app().await;
    app.register("pat@example.com").await;
    five_failures(&app, "pat@example.com").await;
    let seconds = locked_for(log_in(&app, "PAT@example.com", PASSWORD).await).await;
    assert!((890..=900).contains(&seconds), "Retry-After {seconds}");
    // Another account is not affected.
    app.register("lee@example.com").await;
    assert_eq!(
        log_in(&app, "lee@example.com", PASSWORD).await.status(),
        200
    );
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_email_is_answered_exactly_like_a_known_one() {
    let app = spawn_app().await;
    app.register("pat@example.com").await;
    five_failures(&app, "pat@example.com").await;
    five_failures(&app, "nobody@example.com").await;
    let known = log_in(&app, "pat@example.com", "not the password").await;
    let unknown = log_in(&app, "nobody@example.com", "not the password").await;
    assert_eq!(known.status(), unknown.status());
    let known = locked_for(known).await;
    let unknown = locked_for(unknown).await;
    assert!(known.abs_diff(unknown) <= 2, "{known} and {unknown}");
    app.stop().await;
}

#[tokio::test]
async fn a_successful_login_clears_the_count() {
    let app = spawn_app().await;
    app.register("pat@example.com").await;
    for _ in 0..4 {
        log_in(&app, "pat@example.com", "not the password").await;
    }
    assert_eq!(
        log_in(&app, "pat@example.com", PASSWORD).await.status(),
        200
    );
    five_failures(&app, "pat@example.com").await;
    locked_for(log_in(&app, "pat@example.com", PASSWORD).await).await;
    app.stop().await;
}
