//! Webhooks from real processes: two instances on one PostgreSQL database deliver each event
//! once and never the same one twice at the same time; the outbox's bound and its dead
//! letters show in an instance's `/metrics`.

#[path = "../common/hooks_listener.rs"]
mod hooks_listener;

use super::deployment::{Database, Deployment, States, or_skip};
use super::flows::Browser;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use social_login_simulator::SimUser;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";

/// A receiver that takes 200 ms per delivery and notes any event it gets while another
/// request for the same event is still open.
#[derive(Clone, Default)]
struct Receiver {
    open: Arc<Mutex<HashSet<String>>>,
    accepted: Arc<Mutex<Vec<String>>>,
    overlapping: Arc<Mutex<Vec<String>>>,
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap) -> StatusCode {
    let id = hooks_listener::header(&headers, "webhook-id");
    if !receiver.open.lock().unwrap().insert(id.clone()) {
        receiver.overlapping.lock().unwrap().push(id.clone());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    receiver.open.lock().unwrap().remove(&id);
    receiver.accepted.lock().unwrap().push(id);
    StatusCode::NO_CONTENT
}

impl Receiver {
    async fn start() -> (Self, String) {
        let receiver = Self::default();
        let url =
            hooks_listener::serve_hooks(axum::routing::post(receive).with_state(receiver.clone()))
                .await;
        (receiver, url)
    }

    fn accepted(&self) -> Vec<String> {
        self.accepted.lock().unwrap().clone()
    }
}

fn webhooks(url: &str, extra: &str) -> String {
    format!("\n[webhooks]\nurl = \"{url}\"\nsecret = \"{SECRET}\"\n{extra}")
}

/// New users signing in at once: two events each.
const USERS: u32 = 20;

fn user(n: u32) -> SimUser {
    let id = 9_000_000 + n;
    SimUser::new(id.to_string(), format!("hook{n}")).with_email(format!("{id}@example.com"), true)
}

#[tokio::test]
async fn two_instances_never_deliver_one_event_twice_at_the_same_time() {
    let users = (0..USERS).map(user).collect();
    let deployment = or_skip!(Deployment::new(Database::Postgres, States::Redis, users).await);
    let (receiver, url) = Receiver::start().await;
    let config = webhooks(&url, "");
    let (a, b) = (
        deployment.spawn_instance_with(&config),
        deployment.spawn_instance_with(&config),
    );
    // All at once, half on each instance, so both find many events due at the same moment.
    let logins: Vec<_> = (0..USERS)
        .map(|n| {
            let base = if n % 2 == 0 { a.base() } else { b.base() }.to_owned();
            let browser = Browser::new();
            tokio::spawn(async move { browser.login(&base, &(9_000_000 + n).to_string()).await })
        })
        .collect();
    for login in logins {
        login.await.unwrap();
    }
    let expected = usize::try_from(USERS * 2).unwrap();
    for _ in 0..600 {
        if receiver.accepted().len() >= expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A little longer, for a second delivery of any of them to show.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let accepted = receiver.accepted();
    let distinct: HashSet<&String> = accepted.iter().collect();
    assert_eq!(distinct.len(), expected, "{}", a.recent_logs());
    assert_eq!(accepted.len(), expected, "each event went out once");
    assert!(receiver.overlapping.lock().unwrap().is_empty());
}

/// The value of `series` in a `/metrics` text.
fn value(metrics: &str, series: &str) -> Option<f64> {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(series))
        .and_then(|value| value.trim().parse().ok())
}

#[tokio::test]
async fn the_outbox_bound_and_its_dead_letters_show_in_metrics() {
    for (database, states) in [
        (Database::Sqlite, States::Memory),
        (Database::Postgres, States::Redis),
    ] {
        let deployment = or_skip!(Deployment::new(database, states, vec![]).await);
        // A port nothing listens on: nothing is ever delivered.
        let closed = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            format!("http://{}/hooks", listener.local_addr().unwrap())
        };
        let instance = deployment.spawn_instance_with(&webhooks(&closed, "max_pending = 2\n"));
        let browser = Browser::new();
        for email in ["a@example.com", "b@example.com", "c@example.com"] {
            let response = browser.register(instance.base(), email).await;
            assert_eq!(response.status(), StatusCode::CREATED);
        }
        let mut metrics = String::new();
        for _ in 0..150 {
            metrics = browser
                .get(instance.url("/metrics"), None)
                .await
                .text()
                .await
                .unwrap();
            // Four died (the six events beyond two), and the dead letters are held to two.
            let full = "social_login_webhook_dead_letters_total{reason=\"outbox_full\"}";
            let dead = value(&metrics, "social_login_webhook_outbox_dead");
            if dead == Some(2.0) && value(&metrics, full) == Some(4.0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let pending = value(&metrics, "social_login_webhook_outbox_pending");
        let dead = value(&metrics, "social_login_webhook_outbox_dead");
        assert_eq!(
            (pending, dead),
            (Some(2.0), Some(2.0)),
            "{database:?}\n{metrics}"
        );
        let full = "social_login_webhook_dead_letters_total{reason=\"outbox_full\"}";
        assert_eq!(value(&metrics, full), Some(4.0), "{database:?}");
    }
}
