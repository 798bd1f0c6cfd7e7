//! The client IP behind a reverse proxy: rate-limit buckets and request log lines follow the
//! `X-Forwarded-For` client only when the peer (here 127.0.0.1) is a trusted proxy.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;

const BURST: u32 = 3;

/// Enough requests for one bucket to run dry even if a slow machine earns a token or two
/// back meanwhile (one per second); a limit that never bites stays under 429 for all of them.
const ATTEMPTS: usize = BURST as usize + 5;

fn limited(trusted_proxies: &[&str]) -> Options {
    Options {
        rate_limit: Some((1, BURST)),
        trusted_proxies: trusted_proxies.iter().map(|&cidr| cidr.into()).collect(),
        ..Options::default()
    }
}

/// A rate-limited public endpoint, as a proxy would forward it.
async fn authorize_via(app: &TestApp, forwarded_for: &str, request_id: &str) -> reqwest::Response {
    app.http
        .get(app.url("/auth/oauth/github/authorize"))
        .header("x-forwarded-for", forwarded_for)
        .header("x-request-id", request_id)
        .send()
        .await
        .unwrap()
}

/// Sends requests, the i-th with `forwarded_for(i)`, until one is 429. Returns its request
/// id, or `None` if all [`ATTEMPTS`] got through.
async fn first_limited(app: &TestApp, forwarded_for: impl Fn(usize) -> String) -> Option<String> {
    for attempt in 0..ATTEMPTS {
        let request_id = fresh_request_id();
        let response = authorize_via(app, &forwarded_for(attempt), &request_id).await;
        match response.status() {
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(
                    attempt >= BURST as usize,
                    "limited before the burst was spent"
                );
                return Some(request_id);
            }
            status => assert_eq!(status, StatusCode::OK),
        }
    }
    None
}

fn fresh_request_id() -> String {
    format!("client-ip-{}", uuid::Uuid::new_v4())
}

/// The `client_ip` of the request span in the access-log line of `request_id`.
fn logged_client_ip(request_id: &str) -> String {
    let logs = logs();
    let finished = logs
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| {
            line["span"]["request_id"] == request_id
                && line["fields"]["message"] == "finished processing request"
        })
        .unwrap_or_else(|| panic!("no access-log line for {request_id}"));
    finished["span"]["client_ip"]
        .as_str()
        .unwrap_or_else(|| panic!("no client_ip in {finished}"))
        .to_owned()
}

#[tokio::test]
async fn clients_behind_a_trusted_proxy_each_get_their_own_bucket() {
    let app = spawn_app_with(limited(&["127.0.0.1/32"])).await;
    let limited_a = first_limited(&app, |_| "203.0.113.1".into()).await;
    assert!(limited_a.is_some(), "client A is limited");
    let response = authorize_via(&app, "203.0.113.2", &fresh_request_id()).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "client B, behind the same proxy, still gets through"
    );
    app.stop().await;
}

#[tokio::test]
async fn without_trusted_proxies_a_changing_header_does_not_escape_the_limit() {
    let app = spawn_app_with(limited(&[])).await;
    let limited = first_limited(&app, |attempt| format!("203.0.113.{attempt}")).await;
    assert!(limited.is_some(), "the peer's one bucket ran dry");
    app.stop().await;
}

#[tokio::test]
async fn a_client_supplied_left_most_entry_does_not_choose_the_bucket() {
    let app = spawn_app_with(limited(&["127.0.0.1/32"])).await;
    // The client sends its own header; the trusted proxy appends what it saw: 203.0.113.1.
    let limited = first_limited(&app, |attempt| format!("198.51.100.{attempt}, 203.0.113.1"))
        .await
        .expect("every spoofed entry lands in 203.0.113.1's bucket");
    assert_eq!(logged_client_ip(&limited), "203.0.113.1");
    // The buckets are per client, not the proxy's: a client the proxy names is not limited.
    let response = authorize_via(&app, "198.51.100.7", &fresh_request_id()).await;
    assert_eq!(response.status(), StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn the_access_log_carries_the_forwarded_client_only_from_a_trusted_proxy() {
    let trusting = spawn_app_with(limited(&["127.0.0.1/32"])).await;
    let request_id = fresh_request_id();
    let response = authorize_via(&trusting, "198.51.100.8, 203.0.113.8", &request_id).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(logged_client_ip(&request_id), "203.0.113.8");
    trusting.stop().await;

    let direct = spawn_app_with(limited(&[])).await;
    let request_id = fresh_request_id();
    let response = authorize_via(&direct, "203.0.113.9", &request_id).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(logged_client_ip(&request_id), "127.0.0.1");
    assert!(
        !logs().contains("203.0.113.9"),
        "the header is never logged"
    );
    direct.stop().await;
}

#[tokio::test]
async fn ipv6_clients_of_one_64_share_a_bucket_and_are_logged_by_their_full_address() {
    let app = spawn_app_with(limited(&["127.0.0.1/32"])).await;
    // A new address of the same /64 for every request: one subscriber's whole network.
    let limited = first_limited(&app, |attempt| format!("2001:db8:1:2::{:x}", attempt + 1))
        .await
        .expect("the addresses of one /64 share its bucket");
    assert!(logged_client_ip(&limited).starts_with("2001:db8:1:2::"));
    // The next /64 is another subscriber, with a bucket of its own.
    let response = authorize_via(&app, "2001:db8:1:3::1", &fresh_request_id()).await;
    assert_eq!(response.status(), StatusCode::OK);
    app.stop().await;
}
