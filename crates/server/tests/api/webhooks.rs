//! Webhooks (CONTRACT §6): every event POSTed to a local receiver with the Standard
//! Webhooks headers, in order, retried after a failure, and delivered after a restart.

use crate::helpers::{Options, WEBHOOK_SECRET, spawn_app_with, token};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// One POST the receiver got.
#[derive(Clone, Debug)]
struct Delivery {
    id: String,
    timestamp: String,
    signature: String,
    body: String,
}

/// A receiver on loopback that answers 500 to its first `failures` requests. A held one
/// answers nothing until the test opens its gate.
#[derive(Clone, Default)]
struct Receiver {
    failures: Arc<Mutex<u32>>,
    received: Arc<Mutex<Vec<Delivery>>>,
    /// Requests that reached the receiver, answered or not.
    arrived: Arc<AtomicUsize>,
    gate: Option<Arc<Semaphore>>,
}

impl Receiver {
    async fn start(failures: u32) -> (Self, String) {
        Self::serve(Self {
            failures: Arc::new(Mutex::new(failures)),
            ..Self::default()
        })
        .await
    }

    /// A receiver that holds every request until [`Self::open`].
    async fn start_held() -> (Self, String) {
        Self::serve(Self {
            gate: Some(Arc::new(Semaphore::new(0))),
            ..Self::default()
        })
        .await
    }

    fn open(&self) {
        if let Some(gate) = &self.gate {
            gate.add_permits(Semaphore::MAX_PERMITS / 2);
        }
    }

    async fn serve(receiver: Self) -> (Self, String) {
        let router = axum::Router::new()
            .route("/hooks", axum::routing::post(receive))
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        (receiver, url)
    }

    fn deliveries(&self) -> Vec<Delivery> {
        self.received.lock().unwrap().clone()
    }

    /// Waits (at most 20 s) until `count` deliveries were answered 2xx.
    async fn wait_for(&self, count: usize) -> Vec<Delivery> {
        for _ in 0..200 {
            let accepted = self.accepted();
            if accepted.len() >= count {
                return accepted;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("only {} deliveries arrived", self.accepted().len());
    }

    /// The deliveries answered 2xx: those after the failures.
    fn accepted(&self) -> Vec<Delivery> {
        let all = self.deliveries();
        let failed = all.len().min(self.failed_count());
        all[failed..].to_vec()
    }

    fn failed_count(&self) -> usize {
        self.received
            .lock()
            .unwrap()
            .iter()
            .filter(|d| d.body.is_empty())
            .count()
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: String) -> StatusCode {
    receiver.arrived.fetch_add(1, Ordering::SeqCst);
    if let Some(gate) = &receiver.gate {
        gate.acquire().await.unwrap().forget();
    }
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let mut failures = receiver.failures.lock().unwrap();
    let failing = *failures > 0;
    *failures = failures.saturating_sub(1);
    receiver.received.lock().unwrap().push(Delivery {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        // A failed one is kept without its body, to count it apart.
        body: if failing { String::new() } else { body },
    });
    if failing {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::NO_CONTENT
    }
}

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
    serde_json::from_str(&delivery.body).unwrap()
}

#[tokio::test]
async fn every_event_arrives_signed_in_order_and_a_500_is_retried() {
    let (receiver, url) = Receiver::start(1).await;
    let app = spawn_app_with(Options {
        webhook_url: Some(url),
        ..Options::default()
    })
    .await;
    let ada = app.login("583231").await;
    let pat = app.register("pat@example.com").await;

    let accepted = receiver.wait_for(4).await;
    let all = receiver.deliveries();
    assert_eq!(all.len(), 5, "one refused attempt, then four deliveries");
    assert_eq!(all[0].id, all[1].id, "the refused event is the one retried");
    for delivery in &accepted {
        assert_signed(delivery);
    }
    let seen: Vec<(String, String)> = accepted
        .iter()
        .map(|d| {
            let json = body(d);
            (
                json["type"].as_str().unwrap().to_owned(),
                json["data"]["user_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let ada_id = ada["user"]["id"].as_str().unwrap().to_owned();
    let pat_id = pat["user"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        seen,
        [
            ("user.registered".to_owned(), ada_id.clone()),
            ("user.login".to_owned(), ada_id),
            ("user.registered".to_owned(), pat_id.clone()),
            ("user.login".to_owned(), pat_id),
        ]
    );
    let first = body(&accepted[0]);
    assert_eq!(first["data"]["provider"], "github");
    assert_eq!(first["data"]["ip"], "127.0.0.1");
    assert_eq!(first["data"]["id"].as_str(), Some(accepted[0].id.as_str()));
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
    // A port nothing listens on: every attempt fails to connect.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/hooks", listener.local_addr().unwrap())
    };
    let mut app = spawn_app_with(Options {
        webhook_url: Some(closed),
        ..Options::default()
    })
    .await;
    let pat = app.register("pat@example.com").await;
    // Give the first attempt time to fail, so the event is waiting for a retry.
    tokio::time::sleep(Duration::from_millis(800)).await;

    let (receiver, url) = Receiver::start(0).await;
    app.restart_with(|settings| settings.webhooks.url = Some(url))
        .await;
    let accepted = receiver.wait_for(2).await;
    let types: Vec<String> = accepted
        .iter()
        .map(|d| body(d)["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(types, ["user.registered", "user.login"]);
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
    let app = spawn_app_with(Options {
        webhook_url: Some(url),
        ..Options::default()
    })
    .await;
    let ada = app.login("583231").await;
    for _ in 0..200 {
        if receiver.arrived.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        receiver.arrived.load(Ordering::SeqCst) > 0,
        "the first event reached the receiver"
    );

    // The receiver holds that delivery unanswered; requests that write events go on. The
    // bound only keeps a broken build from hanging (delivery itself waits up to 10 s).
    let pat = tokio::time::timeout(Duration::from_secs(8), app.register("pat@example.com"))
        .await
        .expect("a registration while the receiver holds a delivery");
    assert!(pat["user"]["id"].is_string());
    assert!(
        receiver.deliveries().is_empty(),
        "nothing was answered yet: the registration did not wait for the receiver"
    );

    receiver.open();
    let accepted = receiver.wait_for(4).await;
    let users: Vec<Value> = accepted
        .iter()
        .map(|d| body(d)["data"]["user_id"].clone())
        .collect();
    assert_eq!(
        users,
        [
            ada["user"]["id"].clone(),
            ada["user"]["id"].clone(),
            pat["user"]["id"].clone(),
            pat["user"]["id"].clone()
        ]
    );
    app.stop().await;
}
