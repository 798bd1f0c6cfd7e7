//! Dead letters: an event refused `max_attempts` times is kept aside, and
//! `social-login webhooks dead` lists it and puts it back; the outbox keeps at most
//! `max_pending` events, the oldest beyond it become dead letters, counted in `/metrics`,
//! and as many dead letters.

use super::receiver::Receiver;
use crate::helpers::{Options, TestApp, spawn_app_with, user_id, webhook_pace};
use std::time::Duration;

/// Any strong secret: the command reads only the database.
const CLI_SECRET: &str = "kQ7v9Xw2Lr4Tz8Pn3Hs6Jd1Fg5Bm0Yc8uVa2NeRq4Wt7Zi";

/// Runs `social-login webhooks dead` with `args` against the app's database, beside the
/// running app: (exit code, stdout, stderr).
async fn dead(app: &TestApp, args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("social-login.toml");
    let url = &app.settings().database.url;
    std::fs::write(
        &config,
        format!("secret_key = \"{CLI_SECRET}\"\n[database]\nurl = \"{url}\"\n"),
    )
    .unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_social-login"));
    command
        .args(["webhooks", "dead", "--config"])
        .arg(&config)
        .args(args)
        .env_remove("SOCIAL_LOGIN_CONFIG");
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.code().unwrap_or(-1),
        text(output.stdout),
        text(output.stderr),
    )
}

/// Lists the dead letters until there are `count`, counted and listed alike (at most 30 s);
/// the listing. The command lists, then counts: an event that dies in between (the outbox's
/// overflow is swept asynchronously) is counted without being listed, so a count alone may
/// run ahead of its listing.
async fn wait_for_dead(app: &TestApp, count: usize) -> String {
    let mut listed = String::new();
    for _ in 0..100 {
        let (code, out, err) = dead(app, &[]).await;
        assert_eq!(code, 0, "{err}");
        if out
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with(&format!("{count} dead letters ({count} listed)"))
        {
            return out;
        }
        listed = out;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    panic!("never {count} dead letters:\n{listed}");
}

/// The tab-separated fields of the listed line of `id`.
fn line_of<'a>(listed: &'a str, id: &str) -> Vec<&'a str> {
    let line = listed.lines().find(|line| line.starts_with(id));
    line.unwrap_or_else(|| panic!("{id} not listed:\n{listed}"))
        .split('\t')
        .collect()
}

#[tokio::test]
async fn an_event_refused_max_attempts_times_is_a_dead_letter_the_cli_lists_and_redelivers() {
    let (receiver, url) = Receiver::refusing("user.registered").await;
    let app = spawn_app_with(Options {
        webhook_url: Some(url),
        tune: |settings| settings.webhooks.max_attempts = 2,
        ..Options::default()
    })
    .await;
    let pat = app.register("pat@example.com").await;
    receiver.wait_until(|r| r.failed().len() >= 2).await;
    let listed = wait_for_dead(&app, 1).await;
    let id = receiver.failed()[0].id.clone();
    let fields = line_of(&listed, &id);
    assert_eq!(fields[1], "user.registered");
    assert_eq!(fields[3], "2", "attempts");
    assert_eq!(fields[5], "receiver answered 403");
    let user = user_id(&pat);
    for private in [user.as_str(), "127.0.0.1", "pat@example.com"] {
        assert!(!listed.contains(private), "the list shows no {private}");
    }
    receiver.wait_for(1).await;
    // Longer than a third attempt would have waited (two first retries).
    tokio::time::sleep((webhook_pace().first_retry * 3_i32).unsigned_abs()).await;
    assert_eq!(receiver.failed().len(), 2, "a dead letter is not retried");

    let unknown = uuid::Uuid::now_v7().to_string();
    let (code, _, err) = dead(&app, &["--redeliver", &unknown]).await;
    assert_eq!(code, 1);
    assert!(err.contains("no dead letter"), "{err}");
    let (code, _, err) = dead(&app, &["--redeliver", "not-an-id"]).await;
    assert_eq!(code, 2, "{err}");

    receiver.refuse(None);
    let (code, out, err) = dead(&app, &["--redeliver", &id]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("queued for delivery"));
    receiver
        .wait_until(|r| r.accepted().iter().any(|d| d.id == id))
        .await;

    // Every one of them at once.
    receiver.refuse(Some("user.registered"));
    app.register("sam@example.com").await;
    wait_for_dead(&app, 1).await;
    receiver.refuse(None);
    let (code, out, err) = dead(&app, &["--all"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1 dead letters queued"), "{out}");
    receiver.wait_for(4).await;
    wait_for_dead(&app, 0).await;
    app.stop().await;
}

#[tokio::test]
async fn the_outbox_keeps_at_most_max_pending_events_and_as_many_dead_letters_in_metrics() {
    // Nothing is ever delivered.
    let app = spawn_app_with(Options {
        webhook_url: Some(Receiver::nowhere()),
        tune: |settings| settings.webhooks.max_pending = 2,
        ..Options::default()
    })
    .await;
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        app.register(email).await;
    }
    // Six events: the four oldest die, and two of those dead letters are forgotten.
    let mut listed = String::new();
    for _ in 0..100 {
        listed = wait_for_dead(&app, 2).await;
        if listed.ends_with("2 dead letters (2 listed), 2 events pending\n") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(
        listed.ends_with("2 dead letters (2 listed), 2 events pending\n"),
        "{listed}"
    );

    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    let value = |series: &str| {
        metrics
            .lines()
            .find_map(|line| line.strip_prefix(series))
            .and_then(|value| value.trim().parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{series} in /metrics:\n{metrics}"))
    };
    // Only this test fills an outbox; the gauges are shared by every app of the process.
    assert!(value("social_login_webhook_dead_letters_total{reason=\"outbox_full\"}") >= 4.0);
    value("social_login_webhook_outbox_pending");
    value("social_login_webhook_outbox_dead");
    app.stop().await;
}
