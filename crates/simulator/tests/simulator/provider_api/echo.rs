//! `api/echo`: what the provider received, whatever the method, and the headers it answers
//! with that a relay must filter.

use super::call;
use crate::support::fixtures::{GITHUB, start};
use reqwest::Method;
use serde_json::{Value, json};
use social_login_simulator::ECHO_ANSWER_HEADERS;
use social_login_simulator::SimulatorHandle;

async fn github_token(sim: &SimulatorHandle) -> String {
    GITHUB.client(sim).access_token(GITHUB.scope).await
}

#[tokio::test]
async fn echo_reports_the_method_path_query_labels_body_and_header_names() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    let path = "echo/repos/a%20b/issues?state=open&q=%2F";
    let response = call(&sim, GITHUB.provider, Method::POST, path, Some(&token))
        .header("content-type", "application/json")
        .header("accept", "application/vnd.github+json")
        .header("x-custom", "1")
        .body(r#"{"title": "é"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let echo: Value = response.json().await.unwrap();
    assert_eq!(echo["method"], "POST");
    assert_eq!(
        echo["path"], "echo/repos/a%20b/issues",
        "still percent-encoded"
    );
    assert_eq!(echo["query"], "state=open&q=%2F");
    assert_eq!(echo["content_type"], "application/json");
    assert_eq!(echo["accept"], "application/vnd.github+json");
    assert_eq!(echo["body"], r#"{"title": "é"}"#);
    assert_eq!(echo["token_seen"], true);
    let names: Vec<&str> = echo["header_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    for name in [
        "authorization",
        "content-type",
        "x-custom",
        "user-agent",
        "host",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
}

#[tokio::test]
async fn echo_answers_every_method_with_nulls_for_what_was_not_sent() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    for method in [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::PATCH,
        Method::DELETE,
    ] {
        let request = call(&sim, GITHUB.provider, method.clone(), "echo", Some(&token));
        let echo: Value = request.send().await.unwrap().json().await.unwrap();
        let bare = json!({"method": method.as_str(), "path": "echo", "query": null,
                          "content_type": null, "body": "", "token_seen": true});
        for (name, value) in bare.as_object().unwrap() {
            assert_eq!(&echo[name], value, "{method} {name}");
        }
    }
}

#[tokio::test]
async fn echo_answers_with_a_cookie_rate_limits_and_a_secret_header() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    let request = call(&sim, GITHUB.provider, Method::GET, "echo", Some(&token));
    let response = request.send().await.unwrap();
    let headers = response.headers();
    let expected = ECHO_ANSWER_HEADERS
        .into_iter()
        .chain([("content-type", "application/json")]);
    for (name, value) in expected {
        assert_eq!(headers[name], value, "{name}");
    }
}

#[tokio::test]
async fn echo_reads_a_body_up_to_2_mib() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    let limit = 2 * 1024 * 1024;
    for (size, status) in [(limit, 200), (limit + 1, 413)] {
        let request = call(&sim, GITHUB.provider, Method::PUT, "echo", Some(&token));
        let response = request.body(vec![b'a'; size]).send().await.unwrap();
        assert_eq!(response.status(), status, "{size}");
        let body: Value = response.json().await.unwrap();
        match status {
            200 => assert_eq!(body["body"].as_str().map(str::len), Some(size)),
            _ => assert_eq!(body["error"], "payload_too_large"),
        }
    }
}

#[tokio::test]
async fn the_token_is_checked_before_the_body_is_read() {
    let sim = start(&[GITHUB]).await;
    let request = call(&sim, GITHUB.provider, Method::POST, "echo", None);
    let response = request.body(vec![b'a'; 3 * 1024 * 1024]).send().await;
    assert_eq!(response.unwrap().status(), 401);
}
