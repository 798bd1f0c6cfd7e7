//! Request heads hyper cannot parse get problem+json like every other error (docs/api.md#errors):
//! a malformed head is 400 `MalformedRequest`, too many or too large headers 431
//! `HeadersTooLarge`, an oversized URI 414 `UriTooLong`; each closes the connection.

use crate::helpers::*;
use crate::raw_http::{Outcome, RawConnection, address_of};
use std::time::Duration;

/// What `head` is answered, as the raw response.
async fn answer_to(app: &TestApp, head: &[u8]) -> crate::raw_http::RawResponse {
    let mut connection = RawConnection::open(address_of(&app.base)).await;
    connection.send(head).await.unwrap();
    match connection.read_response(Duration::from_secs(10)).await {
        Outcome::Response(response) => response,
        other => panic!("no answer: {other}"),
    }
}

fn assert_problem_body(response: &crate::raw_http::RawResponse, status: u16, code: &str) {
    assert_eq!(response.status, status);
    assert_eq!(
        response.header("content-type"),
        Some("application/problem+json")
    );
    assert!(response.closes_connection());
    let problem: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        (problem["status"].as_u64(), problem["code"].as_str()),
        (Some(u64::from(status)), Some(code))
    );
}

#[tokio::test]
async fn a_head_that_is_not_http_is_400_with_a_problem_body() {
    let app = spawn_app().await;
    for head in [
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n".as_slice(),
        b"G\x01T /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    ] {
        let response = answer_to(&app, head).await;
        assert_problem_body(&response, 400, "MalformedRequest");
    }
    app.stop().await;
}

#[tokio::test]
async fn too_many_headers_are_431_with_a_problem_body() {
    let app = spawn_app().await;
    let mut head = String::from("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    for index in 0..150 {
        head.push_str(&format!("x-filler-{index}: y\r\n"));
    }
    head.push_str("\r\n");
    let response = answer_to(&app, head.as_bytes()).await;
    assert_problem_body(&response, 431, "HeadersTooLarge");
    app.stop().await;
}

#[tokio::test]
async fn a_good_request_after_all_that_is_answered_as_ever() {
    let app = spawn_app().await;
    let response = answer_to(&app, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await;
    assert_eq!(response.status, 200);
    app.stop().await;
}

#[tokio::test]
async fn an_oversized_uri_is_414_with_a_problem_body() {
    let app = spawn_app().await;
    let head = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let response = answer_to(&app, head.as_bytes()).await;
    assert_problem_body(&response, 414, "UriTooLong");
    app.stop().await;
}
