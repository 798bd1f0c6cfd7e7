//! Each event on its own schedule: one the receiver refuses holds back no other, several
//! are in flight at once, and the first delivery after an outage comes within three probe
//! periods of the receiver's return (one period and a poll, with room for a loaded machine);
//! a receiver answering 500 is away like one that does not answer.

use super::receiver::Receiver;
use crate::helpers::{PASSWORD, spawn_app_posting_to, webhook_pace};
use reqwest::StatusCode;
use serde_json::json;
use social_login_test_support::FaultProxy;
use std::time::Instant;

/// What an attacker registers with, for a WAF in front of the receiver to refuse.
const HOSTILE_AGENT: &str = "<script>alert(1)</script>";

#[tokio::test]
async fn a_receiver_that_refuses_one_event_by_its_content_does_not_delay_the_others() {
    let (receiver, url) = Receiver::refusing("<script>").await;
    let app = spawn_app_posting_to(url).await;
    let hostile = app
        .http
        .post(app.url("/auth/register"))
        .header("user-agent", HOSTILE_AGENT)
        .json(&json!({"email": "eve@example.com", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(hostile.status(), StatusCode::CREATED);
    receiver.wait_until(|r| r.failed().len() >= 2).await;

    app.register("pat@example.com").await;
    app.register("sam@example.com").await;
    let accepted = receiver.wait_for(4).await;
    assert!(
        accepted.iter().all(|d| !d.body.contains("<script>")),
        "only the other events went through"
    );
    // The refused ones are retried on their own schedule, and keep being refused.
    receiver.wait_until(|r| r.failed().len() >= 4).await;
    assert_eq!(receiver.accepted().len(), 4);
    app.stop().await;
}

#[tokio::test]
async fn several_deliveries_are_in_flight_at_once_against_a_slow_receiver() {
    let (receiver, url) = Receiver::start_held().await;
    let app = spawn_app_posting_to(url).await;
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        app.register(email).await;
    }
    // The receiver answers nothing yet: every event it holds is a delivery in flight.
    receiver.wait_until(|r| r.arrived_events() >= 4).await;
    receiver.open();
    receiver.wait_for(6).await;
    app.stop().await;
}

#[tokio::test]
async fn after_an_outage_the_first_delivery_comes_within_three_probe_periods_of_the_receivers_return()
 {
    let pace = webhook_pace();
    let (receiver, url) = Receiver::start(0).await;
    let proxy = FaultProxy::start(Receiver::address(&url)).await.unwrap();
    proxy.cut();
    let app = spawn_app_posting_to(format!("http://{}/hooks", proxy.addr())).await;
    let first_event = tokio::time::Instant::now();
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        app.register(email).await;
    }
    // With a plain doubling backoff the first event's attempts come at 0, 1, 3, 7, 15 and 31
    // first retries (0, 2, 6, 14, 30 and 62 s in production): coming back at 16.5 of them, the
    // receiver would see nothing for 14.5, nearly six probe periods.
    tokio::time::sleep_until(first_event + (pace.first_retry * 16.5_f64).unsigned_abs()).await;
    assert!(receiver.answered().is_empty());

    proxy.restore();
    assert_back_within(&receiver, Instant::now(), 3).await;
    app.stop().await;
}

#[tokio::test]
async fn a_receiver_answering_500_is_away_too_and_gets_its_first_delivery_within_two_probes() {
    let pace = webhook_pace();
    let (receiver, url) = Receiver::broken().await;
    let app = spawn_app_posting_to(url).await;
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        app.register(email).await;
    }
    // Long enough for every event to fail a few times and the receiver to count as away.
    tokio::time::sleep((pace.first_retry * 16.5_f64).unsigned_abs()).await;
    assert!(receiver.accepted().is_empty());
    assert!(receiver.failed().len() >= 3, "it was tried and failed");

    receiver.mend();
    // Two probe periods: 10 s in production.
    assert_back_within(&receiver, Instant::now(), 2).await;
    app.stop().await;
}

/// Asserts the first delivery reached `receiver` within `probes` probe periods of `back`
/// (when it came back), then waits for all six.
async fn assert_back_within(receiver: &Receiver, back: Instant, probes: i32) {
    let first = receiver.wait_for(1).await;
    let late = first[0].at - back;
    assert!(
        late < (webhook_pace().probe_every * probes).unsigned_abs(),
        "the first delivery came {late:?} after the receiver came back"
    );
    receiver.wait_for(6).await;
}
