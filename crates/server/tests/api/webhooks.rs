//! Webhooks (docs/configuration.md): every event POSTed to a local receiver with the Standard
//! Webhooks headers, retried after a failure, and delivered after a restart; each event on
//! its own schedule (`webhook_schedule`), dead letters and the outbox's bound
//! (`webhook_dead_letters`).

#[path = "webhook_dead_letters.rs"]
mod dead_letters;
#[path = "webhook_receiver.rs"]
pub(crate) mod receiver;
#[path = "webhook_schedule.rs"]
mod schedule;

use crate::helpers::{WEBHOOK_SECRET, spawn_app_posting_to, token, user_id};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use receiver::{Delivery, Receiver};
use serde_json::Value;
use sha2::Sha256;
use std::time::Duration;

/// Checks the signature as a receiver would, with its own HMAC, not the service's code.
fn assert_signed(delivery: &Delivery) {
    let key = STANDARD
        .decode(WEBHOOK_SECRET.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", delivery.id, delivery.timestamp, delivery.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert_eq!(delivery.signature, expected, "{delivery:?}");
    let sent: i64 = delivery.timestamp.parse().unwrap();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    assert!((now - sent).abs() < 60, "a fresh timestamp");
}

fn body(delivery: &Delivery) -> Value {
    delivery.json()
}

/// `(type, user_id)` of each delivery, sorted: events may arrive in any order.
/// Asserts that `deliveries` are the events `expected` (type, user id), in any order.
fn assert_seen(deliveries: &[Delivery], expected: &[(&str, &String)]) {
    let mut expected: Vec<(String, String)> = expected
        .iter()
        .map(|(kind, user)| ((*kind).to_owned(), (*user).clone()))
        .collect();
    expected.sort();
    assert_eq!(seen(deliveries), expected);
}

fn seen(deliveries: &[Delivery]) -> Vec<(String, String)> {
    let mut seen: Vec<(String, String)> = deliveries
        .iter()
        .map(|d| {
            let json = body(d);
            (
                json["type"].as_str().unwrap().to_owned(),
                json["data"]["user_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    seen.sort();
    seen
}

/// The delivery of the event `kind` about `user`.
fn delivery_of<'a>(deliveries: &'a [Delivery], kind: &str, user: &str) -> &'a Delivery {
    let about = |d: &&Delivery| d.kind() == kind && body(d)["data"]["user_id"] == user;
    let found = deliveries.iter().find(about);
    found.unwrap_or_else(|| panic!("no {kind} about {user}"))
}

#[tokio::test]
async fn every_event_arrives_signed_and_a_500_is_retried() {
    let (receiver, url) = Receiver::start(1).await;
    let app = spawn_app_posting_to(url).await;
    let ada = app.login("583231").await;
    let pat = app.register("pat@example.com").await;

    let accepted = receiver.wait_for(4).await;
    let failed = receiver.failed();
    assert_eq!(failed.len(), 1, "one refused attempt, then four deliveries");
    assert!(
        accepted.iter().any(|d| d.id == failed[0].id),
        "the refused event is retried"
    );
    for delivery in &accepted {
        assert_signed(delivery);
    }
    let (ada_id, pat_id) = (user_id(&ada), user_id(&pat));
    let expected = [
        ("user.login", &ada_id),
        ("user.login", &pat_id),
        ("user.registered", &ada_id),
        ("user.registered", &pat_id),
    ];
    assert_seen(&accepted, &expected);
    let registered = delivery_of(&accepted, "user.registered", &ada_id);
    let first = body(registered);
    assert_eq!(first["data"]["provider"], "github");
    assert_eq!(first["data"]["ip"], "127.0.0.1");
    assert_eq!(first["data"]["id"].as_str(), Some(registered.id.as_str()));
    assert!(first["timestamp"].as_str().is_some_and(|t| t.contains('T')));
    let everything: String = accepted.iter().map(|d| d.body.clone()).collect();
    for secret in [
        &token(&ada),
        ada["refresh_token"].as_str().unwrap(),
        crate::helpers::PASSWORD,
    ] {
        assert!(
            !everything.contains(secret),
            "no token or password is ever sent"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn an_event_whose_receiver_was_down_is_delivered_after_a_restart() {
    let mut app = spawn_app_posting_to(Receiver::nowhere()).await;
    let pat = app.register("pat@example.com").await;
    // Give the first attempt time to fail, so the event is waiting for a retry.
    tokio::time::sleep(Duration::from_millis(800)).await;

    let (receiver, url) = Receiver::start(0).await;
    app.restart_with(|settings| settings.webhooks.url = Some(url))
        .await;
    let accepted = receiver.wait_for(2).await;
    let mut types: Vec<String> = accepted.iter().map(Delivery::kind).collect();
    types.sort();
    assert_eq!(types, ["user.login", "user.registered"]);
    assert!(
        accepted
            .iter()
            .all(|d| body(d)["data"]["user_id"] == pat["user"]["id"])
    );
    app.stop().await;
}

#[tokio::test]
async fn a_receiver_that_does_not_answer_holds_up_no_request() {
    let (receiver, url) = Receiver::start_held().await;
    let app = spawn_app_posting_to(url).await;
    let ada = app.login("583231").await;
    receiver.wait_until(|r| r.arrived() > 0).await;

    // The receiver holds that delivery unanswered; requests that write events go on. The
    // bound only keeps a broken build from hanging (delivery itself waits up to 10 s).
    let pat = tokio::time::timeout(Duration::from_secs(8), app.register("pat@example.com"))
        .await
        .expect("a registration while the receiver holds a delivery");
    assert!(pat["user"]["id"].is_string());
    assert!(
        receiver.answered().is_empty(),
        "nothing was answered yet: the registration did not wait for the receiver"
    );

    receiver.open();
    let accepted = receiver.wait_for(4).await;
    let mut users: Vec<String> = seen(&accepted).into_iter().map(|(_, user)| user).collect();
    users.sort();
    let mut expected = vec![user_id(&ada), user_id(&ada), user_id(&pat), user_id(&pat)];
    expected.sort();
    assert_eq!(users, expected);
    app.stop().await;
}

#[tokio::test]
async fn a_provider_signal_is_sent_as_its_own_event_type() {
    let (receiver, url) = Receiver::start(0).await;
    let app = spawn_app_posting_to(url).await;
    let ada = app.login_at("google", "583231").await;
    let hijacked = crate::signals::signal(&app, "report_hijacking", "583231").await;
    assert_eq!(crate::signals::deliver(&app, &hijacked).await.status(), 202);

    let delivered = receiver.wait_for(3).await;
    let ada_id = user_id(&ada);
    let expected = [
        ("provider.security_event", &ada_id),
        ("user.login", &ada_id),
        ("user.registered", &ada_id),
    ];
    assert_seen(&delivered, &expected);
    let signal = delivery_of(&delivered, "provider.security_event", &ada_id);
    assert_signed(signal);
    assert_eq!(body(signal)["data"]["provider"], "google");
    app.stop().await;
}
