//! Clients that send their request slowly are cut within the configured deadlines
//! (`http.header_read_timeout_seconds`, `http.body_read_timeout_seconds`,
//! `http.request_timeout_seconds`), so they cannot hold connections and descriptors for as
//! long as they like; a request takes an in-flight slot only once its body is in, so slow
//! bodies cannot shut other clients out; and one client IP holds at most
//! `http.max_connections_per_ip` connections.

use crate::helpers::*;
use crate::raw_http::{Outcome, RawConnection, address_of, request_head};
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

const HEADER_DEADLINE_SECONDS: u64 = 1;
const REQUEST_DEADLINE_SECONDS: u64 = 2;
/// Timers fire late on a loaded machine; a cut this much past the deadline still counts.
const MARGIN: Duration = Duration::from_millis(2500);
/// A slow client sends one byte this often: well inside any deadline, so only a deadline on
/// the whole head or request can stop it.
const TRICKLE: Duration = Duration::from_millis(200);

fn with_deadlines(settings: &mut social_login::settings::Settings) {
    settings.http.header_read_timeout_seconds = HEADER_DEADLINE_SECONDS;
    settings.http.request_timeout_seconds = REQUEST_DEADLINE_SECONDS;
}

async fn app_with_deadlines() -> TestApp {
    spawn_app_tuned(with_deadlines).await
}

/// Sends `first`, then one byte of `trickle` every [`TRICKLE`] until the server closes the
/// connection. Returns how long after `first` that happened and what came back; fails the
/// test if the connection is still open after `deadline` + [`MARGIN`].
async fn trickle_until_closed(
    connection: &mut RawConnection,
    first: &[u8],
    trickle: &[u8],
    deadline: Duration,
) -> (Duration, Vec<u8>) {
    let started = std::time::Instant::now();
    connection.send(first).await.expect("first bytes");
    let mut received = Vec::new();
    for byte in trickle.iter().cycle() {
        if let Some((_, bytes)) = connection.wait_for_close(TRICKLE).await {
            received.extend(bytes);
            break;
        }
        let elapsed = started.elapsed();
        assert!(
            elapsed <= deadline + MARGIN,
            "still open {elapsed:?} after the first bytes (deadline {deadline:?})"
        );
        if connection.send(std::slice::from_ref(byte)).await.is_err() {
            break; // closed while we were writing
        }
    }
    (started.elapsed(), received)
}

/// Trickles a login body one byte at a time: the server must cut it at `deadline` with a
/// 408 problem that closes the connection.
async fn trickled_body_gets_408_at(app: &TestApp, deadline: Duration) {
    let mut connection = RawConnection::open(address_of(&app.base)).await;
    let head = request_head("POST", "/auth/login", 1000);
    let (elapsed, received) =
        trickle_until_closed(&mut connection, head.as_bytes(), b"{", deadline).await;
    assert_cut_at(elapsed, deadline);
    let response = String::from_utf8_lossy(&received).to_ascii_lowercase();
    assert!(response.starts_with("http/1.1 408"), "{response}");
    assert!(response.contains("connection: close"), "{response}");
    assert!(response.contains("application/problem+json"), "{response}");
    assert!(
        response.contains("\"code\":\"requesttimeout\""),
        "{response}"
    );
}

fn assert_cut_at(elapsed: Duration, deadline: Duration) {
    assert!(
        elapsed + Duration::from_millis(300) >= deadline,
        "cut after {elapsed:?}, before the deadline {deadline:?}"
    );
    assert!(
        elapsed <= deadline + MARGIN,
        "cut after {elapsed:?}, deadline {deadline:?}"
    );
}

#[tokio::test]
async fn a_client_that_trickles_its_request_head_is_cut_at_the_header_deadline() {
    let app = app_with_deadlines().await;
    let mut connection = RawConnection::open(address_of(&app.base)).await;
    let deadline = Duration::from_secs(HEADER_DEADLINE_SECONDS);
    let (elapsed, received) = trickle_until_closed(
        &mut connection,
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
        b"abcdefgh",
        deadline,
    )
    .await;
    assert_cut_at(elapsed, deadline);
    assert!(received.is_empty(), "no response to a request never sent");
    app.stop().await;
}

#[tokio::test]
async fn a_connection_that_sends_nothing_or_idles_after_a_response_is_cut_at_the_header_deadline() {
    let app = app_with_deadlines().await;
    let deadline = Duration::from_secs(HEADER_DEADLINE_SECONDS);
    let mut silent = RawConnection::open(address_of(&app.base)).await;
    let (elapsed, _) = silent
        .wait_for_close(deadline + MARGIN)
        .await
        .expect("a silent connection is closed");
    assert_cut_at(elapsed, deadline);

    let mut idle = RawConnection::open(address_of(&app.base)).await;
    idle.send(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    match idle.read_response(Duration::from_secs(5)).await {
        Outcome::Response(response) => {
            assert_eq!(response.status, 200);
            assert!(!response.closes_connection());
        }
        other => panic!("healthz: {other}"),
    }
    let (elapsed, _) = idle
        .wait_for_close(deadline + MARGIN)
        .await
        .expect("an idle kept-alive connection is closed");
    assert_cut_at(elapsed, deadline);
    app.stop().await;
}

#[tokio::test]
async fn a_client_that_trickles_its_body_gets_408_and_is_cut_at_the_request_deadline() {
    let app = app_with_deadlines().await;
    trickled_body_gets_408_at(&app, Duration::from_secs(REQUEST_DEADLINE_SECONDS)).await;
    app.stop().await;
}

/// The client that misbehaves: another loopback address than the tests' usual 127.0.0.1.
const SLOW_CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
const MAX_IN_FLIGHT: usize = 4;
const MAX_CONNECTIONS_PER_IP: usize = 8;

fn with_small_limits(settings: &mut social_login::settings::Settings) {
    settings.http.max_in_flight = MAX_IN_FLIGHT;
    settings.http.max_connections_per_ip = MAX_CONNECTIONS_PER_IP;
}

/// Opens `count` connections from `from`, each sending a login head announcing a 1,000-byte
/// body and then one byte of it, and nothing more: as slow a body as there can be.
async fn stalled_bodies(app: &TestApp, from: IpAddr, count: usize) -> Vec<RawConnection> {
    let head = request_head("POST", "/auth/login", 1000);
    let mut connections = Vec::new();
    for _ in 0..count {
        let mut connection = RawConnection::open_from(from, address_of(&app.base)).await;
        // A connection the server already closed may refuse the write: that is its answer.
        let _ = connection.send(head.as_bytes()).await;
        let _ = connection.send(b"{").await;
        connections.push(connection);
    }
    // Let the server read every head: before the fix, each now holds an in-flight slot.
    tokio::time::sleep(Duration::from_millis(300)).await;
    connections
}

/// Asks for /healthz on `connection`; fails naming `which` connection unless it is 200.
async fn assert_healthz_on(connection: &mut RawConnection, which: &str) {
    connection
        .send(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .ok();
    match connection.read_response(Duration::from_secs(5)).await {
        Outcome::Response(response) => assert_eq!(response.status, 200, "{which}"),
        other => panic!("{which}: {other}"),
    }
}

#[tokio::test]
async fn one_clients_slow_bodies_leave_another_clients_login_and_authorize_working() {
    let app = spawn_app_tuned(with_small_limits).await;
    app.register("pat@example.com").await;
    let _held = stalled_bodies(&app, SLOW_CLIENT, 3 * MAX_IN_FLIGHT).await;

    let credentials = json!({"email": "pat@example.com", "password": PASSWORD});
    for attempt in 0..3 {
        let login = app.post("/auth/login", &credentials, None).await;
        assert_eq!(login.status(), 200, "login {attempt}");
        let authorize = app.get("/auth/oauth/github/authorize", None).await;
        assert_eq!(authorize.status(), 200, "authorize {attempt}");
    }
    app.stop().await;
}

#[tokio::test]
async fn one_client_ip_holds_at_most_max_connections_per_ip_connections() {
    let app = spawn_app_tuned(with_small_limits).await;
    let mut held = Vec::new();
    for _ in 0..MAX_CONNECTIONS_PER_IP {
        held.push(RawConnection::open_from(SLOW_CLIENT, address_of(&app.base)).await);
    }
    let mut one_too_many = RawConnection::open_from(SLOW_CLIENT, address_of(&app.base)).await;
    let (_, received) = one_too_many
        .wait_for_close(Duration::from_secs(2))
        .await
        .expect("a connection over the limit is closed at once");
    assert!(received.is_empty(), "closed without a response");

    // The ones within the limit still work, and so does every other client.
    assert_healthz_on(&mut held[0], "a connection within the limit").await;
    let mut other_client = RawConnection::open(address_of(&app.base)).await;
    assert_healthz_on(&mut other_client, "another client").await;

    // A closed connection gives its place back.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut replacement = RawConnection::open_from(SLOW_CLIENT, address_of(&app.base)).await;
    assert_healthz_on(&mut replacement, "a connection after one closed").await;
    app.stop().await;
}

#[tokio::test]
async fn connections_from_a_trusted_proxy_are_not_limited_per_ip() {
    let app = spawn_app_with(Options {
        trusted_proxies: vec![format!("{SLOW_CLIENT}/32")],
        tune: with_small_limits,
        ..Options::default()
    })
    .await;
    let mut via_proxy = Vec::new();
    for _ in 0..2 * MAX_CONNECTIONS_PER_IP {
        via_proxy.push(RawConnection::open_from(SLOW_CLIENT, address_of(&app.base)).await);
    }
    for (index, connection) in via_proxy.iter_mut().enumerate() {
        assert_healthz_on(connection, &format!("proxy connection {index}")).await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_trickled_body_is_cut_at_the_body_deadline_well_before_the_request_deadline() {
    let app = spawn_app_tuned(|settings| {
        settings.http.body_read_timeout_seconds = 1;
        settings.http.request_timeout_seconds = 60;
    })
    .await;
    trickled_body_gets_408_at(&app, Duration::from_secs(1)).await;
    app.stop().await;
}
