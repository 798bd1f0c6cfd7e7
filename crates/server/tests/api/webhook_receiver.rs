//! A webhook receiver on loopback for the tests: it records every request it gets (headers,
//! body, the status it answered, when), and can fail the first few, refuse bodies holding
//! some text (as a WAF would), or hold every request until the test opens its gate.

#[path = "../common/hooks_listener.rs"]
mod hooks_listener;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use hooks_listener::serve_hooks;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// One request the receiver answered.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub id: String,
    pub timestamp: String,
    pub signature: String,
    pub body: String,
    pub status: StatusCode,
    pub at: Instant,
}

impl Delivery {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap()
    }

    pub fn kind(&self) -> String {
        self.json()["type"].as_str().unwrap().to_owned()
    }
}

#[derive(Default)]
struct Inner {
    /// 500 to this many requests first.
    failures: Mutex<u32>,
    /// 500 to everything while set (a receiver whose own database is down).
    broken: std::sync::atomic::AtomicBool,
    /// 403 to bodies holding this text.
    refuse: Mutex<Option<String>>,
    /// Holds every request until opened.
    gate: Option<Semaphore>,
    answered: Mutex<Vec<Delivery>>,
    /// Requests that reached the receiver, answered or not.
    arrived: AtomicUsize,
    /// The `webhook-id` of each, as it arrived.
    arrived_ids: Mutex<Vec<String>>,
}

#[derive(Clone, Default)]
pub struct Receiver(Arc<Inner>);

impl Receiver {
    /// A receiver that answers 500 to its first `failures` requests, then 204.
    pub async fn start(failures: u32) -> (Self, String) {
        Self::serve(Inner {
            failures: Mutex::new(failures),
            ..Inner::default()
        })
        .await
    }

    /// A receiver that answers 500 to everything until [`Receiver::mend`].
    pub async fn broken() -> (Self, String) {
        Self::serve(Inner {
            broken: true.into(),
            ..Inner::default()
        })
        .await
    }

    /// A broken receiver answers as usual from now on.
    pub fn mend(&self) {
        self.0.broken.store(false, Ordering::SeqCst);
    }

    /// A receiver that answers 403 to every body holding `text`, and 204 to the rest.
    pub async fn refusing(text: &str) -> (Self, String) {
        Self::serve(Inner {
            refuse: Mutex::new(Some(text.to_owned())),
            ..Inner::default()
        })
        .await
    }

    /// A receiver that holds every request until [`Self::open`].
    pub async fn start_held() -> (Self, String) {
        Self::serve(Inner {
            gate: Some(Semaphore::new(0)),
            ..Inner::default()
        })
        .await
    }

    async fn serve(inner: Inner) -> (Self, String) {
        let receiver = Self(Arc::new(inner));
        let url = serve_hooks(axum::routing::post(receive).with_state(receiver.clone())).await;
        (receiver, url)
    }

    /// A URL on a port nothing listens on: every delivery to it fails to connect.
    pub fn nowhere() -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/hooks", listener.local_addr().unwrap())
    }

    /// Where it listens, for a proxy in front of it.
    pub fn address(url: &str) -> SocketAddr {
        let url = url::Url::parse(url).unwrap();
        format!("{}:{}", url.host_str().unwrap(), url.port().unwrap())
            .parse()
            .unwrap()
    }

    pub fn open(&self) {
        if let Some(gate) = &self.0.gate {
            gate.add_permits(Semaphore::MAX_PERMITS / 2);
        }
    }

    /// From now on refuse bodies holding `text` (`None`: refuse nothing).
    pub fn refuse(&self, text: Option<&str>) {
        *self.0.refuse.lock().unwrap() = text.map(str::to_owned);
    }

    pub fn arrived(&self) -> usize {
        self.0.arrived.load(Ordering::SeqCst)
    }

    /// How many different events reached the receiver, answered or not.
    pub fn arrived_events(&self) -> usize {
        let mut ids = self.0.arrived_ids.lock().unwrap().clone();
        ids.sort();
        ids.dedup();
        ids.len()
    }

    /// Every request answered, in the order answered.
    pub fn answered(&self) -> Vec<Delivery> {
        self.0.answered.lock().unwrap().clone()
    }

    /// The deliveries answered 2xx.
    pub fn accepted(&self) -> Vec<Delivery> {
        let answered = self.answered().into_iter();
        answered.filter(|d| d.status.is_success()).collect()
    }

    /// The requests answered with an error status.
    pub fn failed(&self) -> Vec<Delivery> {
        let answered = self.answered().into_iter();
        answered.filter(|d| !d.status.is_success()).collect()
    }

    /// Waits (at most 30 s) until `count` deliveries were accepted; those.
    pub async fn wait_for(&self, count: usize) -> Vec<Delivery> {
        self.wait_until(|receiver| receiver.accepted().len() >= count)
            .await;
        self.accepted()
    }

    /// Waits (at most 30 s) until `done` holds.
    pub async fn wait_until(&self, done: impl Fn(&Self) -> bool) {
        for _ in 0..300 {
            if done(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "gave up waiting: {} accepted, {} failed, {} arrived",
            self.accepted().len(),
            self.failed().len(),
            self.arrived()
        );
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: String) -> StatusCode {
    let inner = &receiver.0;
    let header = |name: &str| hooks_listener::header(&headers, name);
    inner.arrived_ids.lock().unwrap().push(header("webhook-id"));
    inner.arrived.fetch_add(1, Ordering::SeqCst);
    if let Some(gate) = &inner.gate {
        gate.acquire().await.unwrap().forget();
    }
    let status = {
        let mut failures = inner.failures.lock().unwrap();
        let refused = inner.refuse.lock().unwrap();
        if inner.broken.load(Ordering::SeqCst) {
            StatusCode::INTERNAL_SERVER_ERROR
        } else if *failures > 0 {
            *failures -= 1;
            StatusCode::INTERNAL_SERVER_ERROR
        } else if refused.as_deref().is_some_and(|text| body.contains(text)) {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::NO_CONTENT
        }
    };
    inner.answered.lock().unwrap().push(Delivery {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body,
        status,
        at: Instant::now(),
    });
    status
}
