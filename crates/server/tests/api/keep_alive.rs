//! Keep-alive connections survive refusals. Whatever answers a request (the rate limit, a
//! missing bearer token, a body over the limit), the client gets a complete response, and the
//! connection either stays usable or that response says `Connection: close`.

use crate::helpers::*;
use crate::raw_http::{Outcome, RawConnection, address_of, request_head};
use std::collections::BTreeSet;
use std::time::Duration;

const CONNECTIONS: usize = 4;
const REQUESTS_PER_CONNECTION: usize = 24;
const MAX_BODY_BYTES: usize = 1024;
/// Between a request's head and its body. Many clients write them separately, and on a loaded
/// host they arrive in separate segments: the server may answer before the body is in.
const BODY_GAP: Duration = Duration::from_millis(30);
/// A login hashes a password (about a second in a debug build, several on a loaded host);
/// a request that gets no answer at all is still caught.
const RESPONSE_WITHIN: Duration = Duration::from_secs(30);

/// The i-th request of a connection: its path, body and the statuses it may get.
fn request(index: usize) -> (&'static str, String, &'static [u16]) {
    match index % 3 {
        // Read by the handler (401), refused unread by the rate limit (429), or 503 when
        // every password-hashing slot stays busy (slow hashes of a debug build).
        0 => (
            "/auth/login",
            r#"{"email":"nobody@example.com","password":"not the password"}"#.to_owned(),
            &[401, 429, 503],
        ),
        // Refused by the bearer check before the body is looked at.
        1 => (
            "/auth/oauth/github/connect",
            r#"{"code":"c","state":"s"}"#.to_owned(),
            &[401],
        ),
        // Over the body limit (413), or refused by the rate limit first (429).
        _ => (
            "/auth/oauth/github/callback",
            format!(
                r#"{{"code":"{}","state":"s"}}"#,
                "x".repeat(2 * MAX_BODY_BYTES)
            ),
            &[413, 429],
        ),
    }
}

/// What one connection saw: a line per request that got no proper answer, and the statuses.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    statuses: BTreeSet<u16>,
}

/// Runs one connection's requests.
async fn run_connection(address: std::net::SocketAddr, connection: usize) -> Report {
    let mut report = Report::default();
    let failures = &mut report.failures;
    let mut stream = RawConnection::open(address).await;
    let mut reused = false;
    for index in 0..REQUESTS_PER_CONNECTION {
        let (path, body, allowed) = request(index + connection);
        let head = request_head("POST", path, body.len());
        let split = index % 2 == 0;
        let sent = if split {
            match stream.send(head.as_bytes()).await {
                Ok(()) => {
                    tokio::time::sleep(BODY_GAP).await;
                    stream.send(body.as_bytes()).await
                }
                Err(error) => Err(error),
            }
        } else {
            stream.send(format!("{head}{body}").as_bytes()).await
        };
        let label = format!("connection {connection} request {index} ({path}, reused: {reused})");
        if let Err(error) = sent {
            failures.push(format!("{label}: could not send: {error}"));
            stream = RawConnection::open(address).await;
            reused = false;
            continue;
        }
        match stream.read_response(RESPONSE_WITHIN).await {
            Outcome::Response(response) => {
                report.statuses.insert(response.status);
                if !allowed.contains(&response.status) {
                    failures.push(format!("{label}: status {}", response.status));
                }
                let problem: serde_json::Value =
                    serde_json::from_slice(&response.body).unwrap_or_default();
                if problem["status"] != response.status {
                    failures.push(format!("{label}: body is not its problem+json"));
                }
                if matches!(response.status, 429 | 503) && response.header("retry-after").is_none()
                {
                    failures.push(format!("{label}: {} without Retry-After", response.status));
                }
                if response.closes_connection() {
                    stream = RawConnection::open(address).await;
                    reused = false;
                } else {
                    reused = true;
                }
            }
            other => {
                failures.push(format!("{label}: no response: {other}"));
                stream = RawConnection::open(address).await;
                reused = false;
            }
        }
    }
    report
}

#[tokio::test]
async fn every_request_on_a_reused_connection_gets_a_complete_response() {
    let app = spawn_app_with(Options {
        rate_limit: Some((1, 3)),
        max_body_bytes: MAX_BODY_BYTES,
        ..Options::default()
    })
    .await;
    let address = address_of(&app.base);
    let runs = (0..CONNECTIONS).map(|connection| run_connection(address, connection));
    let reports = run_all(runs).await;
    let statuses: BTreeSet<u16> = reports.iter().flat_map(|r| r.statuses.clone()).collect();
    let failures: Vec<&String> = reports.iter().flat_map(|r| &r.failures).collect();
    assert!(
        failures.is_empty(),
        "{} of {} requests failed:\n{}",
        failures.len(),
        CONNECTIONS * REQUESTS_PER_CONNECTION,
        failures
            .iter()
            .map(|line| line.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for status in [401, 413, 429] {
        assert!(statuses.contains(&status), "no {status} among {statuses:?}");
    }
    app.stop().await;
}

/// Runs the futures as concurrent tasks and collects their outputs in order.
async fn run_all<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.expect("connection task"));
    }
    outputs
}
