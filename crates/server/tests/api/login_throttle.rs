//! The password-login throttle over HTTP (docs/api.md#password-login-throttle): five wrong
//! passwords for an email from one client, and that client's next attempt is 429 with
//! `Retry-After`, the right password included, while the owner on another address logs in;
//! unknown emails are answered the same; past the account's failures from anywhere every
//! attempt waits at least a second, never refused; hits show in `/metrics` and as the
//! owner's `user.login_throttled` events. Clients are told apart by `X-Forwarded-For` from a
//! trusted proxy (the test itself).

use crate::helpers::*;
use serde_json::json;
use std::time::{Duration, Instant};

const ATTACKER: &str = "198.51.100.66";
const OWNER: &str = "203.0.113.7";

fn behind_a_proxy() -> Options {
    Options {
        trusted_proxies: vec!["127.0.0.1/32".into()],
        ..Options::default()
    }
}

/// An app behind the test's proxy with one change to its settings.
async fn behind_a_proxy_with(tune: fn(&mut social_login::settings::Settings)) -> TestApp {
    spawn_app_with(Options {
        tune,
        ..behind_a_proxy()
    })
    .await
}

/// An app behind the test's proxy where Pat has registered with a password.
async fn pat_behind_a_proxy() -> TestApp {
    let app = spawn_app_with(behind_a_proxy()).await;
    app.register("pat@example.com").await;
    app
}

async fn log_in(app: &TestApp, email: &str, password: &str, client: &str) -> reqwest::Response {
    app.http
        .post(app.url("/auth/login"))
        .header("x-forwarded-for", client)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
}

/// `n` wrong passwords for `email` from `client`, each answered as a wrong password.
async fn failures(app: &TestApp, email: &str, client: &str, n: usize) {
    for _ in 0..n {
        let refused = log_in(app, email, "not the password", client).await;
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

async fn throttled_events(app: &TestApp, login: &serde_json::Value) -> usize {
    let events = app.get_json("/users/me/events", Some(&token(login))).await;
    let events = events.as_array().unwrap().clone();
    events
        .iter()
        .filter(|event| event["type"] == "user.login_throttled")
        .count()
}

/// Asserts `/metrics` counts a throttled login by `limit` (`client` or `account`).
async fn assert_throttle_counted(app: &TestApp, limit: &str) {
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    let counter = format!("social_login_password_throttled_total{{limit=\"{limit}\"}}");
    assert!(metrics.contains(&counter), "{metrics}");
}

#[tokio::test]
async fn five_wrong_passwords_from_one_client_lock_out_that_client_and_not_the_owner() {
    let app = pat_behind_a_proxy().await;
    failures(&app, "pat@example.com", ATTACKER, 5).await;
    let seconds = locked_for(log_in(&app, "PAT@example.com", PASSWORD, ATTACKER).await).await;
    assert!((890..=900).contains(&seconds), "Retry-After {seconds}");

    let owner = log_in(&app, "pat@example.com", PASSWORD, OWNER).await;
    assert_eq!(owner.status(), 200, "the owner is not locked out");
    let owner: serde_json::Value = owner.json().await.unwrap();
    assert_eq!(throttled_events(&app, &owner).await, 1);
    assert_throttle_counted(&app, "client").await;
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_email_is_answered_exactly_like_a_known_one() {
    let app = pat_behind_a_proxy().await;
    failures(&app, "pat@example.com", ATTACKER, 5).await;
    failures(&app, "nobody@example.com", ATTACKER, 5).await;
    let known = log_in(&app, "pat@example.com", "not the password", ATTACKER).await;
    let unknown = log_in(&app, "nobody@example.com", "not the password", ATTACKER).await;
    assert_eq!(known.status(), unknown.status());
    let known = locked_for(known).await;
    let unknown = locked_for(unknown).await;
    assert!(known.abs_diff(unknown) <= 2, "{known} and {unknown}");
    app.stop().await;
}

#[tokio::test]
async fn a_successful_login_clears_the_clients_count() {
    let app = pat_behind_a_proxy().await;
    failures(&app, "pat@example.com", OWNER, 4).await;
    let ok = log_in(&app, "pat@example.com", PASSWORD, OWNER).await;
    assert_eq!(ok.status(), 200);
    failures(&app, "pat@example.com", OWNER, 5).await;
    locked_for(log_in(&app, "pat@example.com", PASSWORD, OWNER).await).await;
    app.stop().await;
}

#[tokio::test]
async fn a_campaign_from_many_addresses_slows_the_account_and_the_owner_still_logs_in() {
    let app = behind_a_proxy_with(|s| s.rate_limit.password_attempts_per_account = 8).await;
    app.register("pat@example.com").await;
    for bot in 1..=4 {
        failures(&app, "pat@example.com", &format!("198.51.100.{bot}"), 2).await;
    }
    let started = Instant::now();
    let owner = log_in(&app, "pat@example.com", PASSWORD, OWNER).await;
    let waited = started.elapsed();
    assert_eq!(owner.status(), 200, "slowed, never refused");
    assert!(
        waited >= Duration::from_secs(1),
        "answered after {waited:?}"
    );
    let owner: serde_json::Value = owner.json().await.unwrap();
    assert_eq!(
        throttled_events(&app, &owner).await,
        1,
        "the limit reached once"
    );
    assert_throttle_counted(&app, "account").await;
    app.stop().await;
}

#[tokio::test]
async fn a_full_attempt_table_never_makes_oauth_or_native_sign_in_answer_503() {
    let app = behind_a_proxy_with(|s| s.oauth_state_store.max_attempt_entries = 20).await;
    // Junk that is no email is counted nowhere; well-formed junk fills the table.
    for junk in 0..30 {
        let refused = log_in(&app, &format!("junk {junk}"), "x", ATTACKER).await;
        assert_problem(refused, 401, "InvalidCredentials").await;
    }
    for junk in 0..30 {
        let email = format!("junk{junk}@example.com");
        let _ = log_in(&app, &email, "not the password", ATTACKER).await;
    }
    let full = log_in(&app, "pat@example.com", PASSWORD, OWNER).await;
    if crate::STORAGE.redis {
        // Redis holds the counts with no such bound: the attempt is judged.
        assert_problem(full, 401, "InvalidCredentials").await;
    } else {
        assert_problem(full, 503, "ServiceUnavailable").await;
    }

    app.login_at("github", "583231").await;
    let native = app.native_body_for(
        social_login_simulator::Provider::Google,
        &grace(),
        CLIENT_ID,
    );
    let signed_in = app.native_sign_in("google", &native).await;
    assert_eq!(signed_in.status(), 200, "native sign-in still works");
    app.stop().await;
}
