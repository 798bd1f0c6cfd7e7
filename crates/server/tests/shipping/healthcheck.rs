//! `social-login healthcheck`, the image's HEALTHCHECK, run as the real binary: silent and
//! 0 against a live server; 1, with the reason on stderr, when nothing healthy answers.

use crate::probes::start_server;
use std::net::{SocketAddr, TcpListener};
use std::process::Output;
use std::time::{Duration, Instant};

/// Runs the binary off the async runtime, so the server under test keeps serving.
async fn healthcheck(url: String) -> (Output, Duration) {
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_social-login"))
            .args(["healthcheck", "--url", &url])
            .output()
            .expect("the binary runs");
        (output, started.elapsed())
    })
    .await
    .unwrap()
}

fn assert_unhealthy(output: &Output, what: &str) {
    assert_eq!(
        output.status.code(),
        Some(1),
        "{what}: exit 1 (Docker's 'unhealthy')"
    );
    assert!(output.stdout.is_empty(), "{what}: nothing on stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("unhealthy: "),
        "{what}: says why on stderr: {stderr}"
    );
}

/// A port nothing listens on: bound, read, released.
fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

#[tokio::test]
async fn healthcheck_is_silent_and_succeeds_against_the_running_server() {
    let (server, _dir) = start_server().await;
    let (output, _) = healthcheck(format!("{}/healthz", server.url())).await;
    assert!(output.status.success(), "exit 0: {output:?}");
    assert!(
        output.stdout.is_empty() && output.stderr.is_empty(),
        "prints nothing: {output:?}"
    );
    server.stop().await.unwrap();
}

#[tokio::test]
async fn healthcheck_fails_on_a_closed_port() {
    let address = closed_port();
    let (output, _) = healthcheck(format!("http://{address}/healthz")).await;
    assert_unhealthy(&output, "closed port");
}

#[tokio::test]
async fn healthcheck_fails_on_an_answer_that_is_not_2xx() {
    let (server, _dir) = start_server().await;
    let (output, _) = healthcheck(format!("{}/no-such-path", server.url())).await;
    assert_unhealthy(&output, "404");
    assert!(String::from_utf8_lossy(&output.stderr).contains("404"));
    server.stop().await.unwrap();
}

#[tokio::test]
async fn healthcheck_gives_up_after_two_seconds_on_a_server_that_never_answers() {
    // Accepted by the kernel's backlog, never read: the request hangs until the timeout.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = silent.local_addr().unwrap();
    let (output, elapsed) = healthcheck(format!("http://{address}/healthz")).await;
    assert_unhealthy(&output, "silent server");
    assert!(
        elapsed >= Duration::from_millis(1900) && elapsed < Duration::from_secs(5),
        "bounded by the 2 s timeout, took {elapsed:?}"
    );
    drop(silent);
}
