//! Clients that send their request slowly are cut within the configured deadlines
//! (`http.header_read_timeout_seconds`, `http.request_timeout_seconds`), so they cannot hold
//! connections and descriptors for as long as they like.

use crate::helpers::*;
use crate::raw_http::{Outcome, RawConnection, address_of, request_head};
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
    spawn_app_with(Options {
        tune: with_deadlines,
        ..Options::default()
    })
    .await
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
    let mut connection = RawConnection::open(address_of(&app.base)).await;
    let deadline = Duration::from_secs(REQUEST_DEADLINE_SECONDS);
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
    app.stop().await;
}
