//! `api/bytes`, `api/redirect`, `api/status/{code}`, unknown paths, the log and faults.

use super::{call, get};
use crate::support::fixtures::{GITHUB, start};
use crate::support::status_and_json;
use reqwest::Method;
use serde_json::json;
use social_login_simulator::{Endpoint, Fault, Provider, SimulatorHandle};

const MIB: u64 = 1024 * 1024;

async fn github_token(sim: &SimulatorHandle) -> String {
    GITHUB.client(sim).access_token(GITHUB.scope).await
}

/// Reads the answer to `api/bytes?n=<n>` chunk by chunk: the status, the declared length
/// and how many bytes came.
async fn read_bytes(sim: &SimulatorHandle, token: &str, n: u64) -> (u16, Option<u64>, u64) {
    let path = format!("bytes?n={n}");
    let request = call(sim, Provider::Github, Method::GET, &path, Some(token));
    let mut response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let length = response.content_length();
    let mut read = 0;
    while let Some(chunk) = response.chunk().await.unwrap() {
        read += chunk.len() as u64;
    }
    (status, length, read)
}

#[tokio::test]
async fn bytes_streams_exactly_n_bytes_up_to_64_mib() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    for n in [0, 1, 64 * 1024, MIB + 123, 64 * MIB] {
        assert_eq!(read_bytes(&sim, &token, n).await, (200, Some(n), n), "{n}");
    }
    let request = call(
        &sim,
        Provider::Github,
        Method::GET,
        "bytes?n=8",
        Some(&token),
    );
    let response = request.send().await.unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "application/octet-stream"
    );
}

#[tokio::test]
async fn bytes_refuses_more_than_64_mib_or_no_number() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    for path in [
        format!("bytes?n={}", 64 * MIB + 1),
        "bytes".into(),
        "bytes?n=x".into(),
    ] {
        let (status, body) = get(&sim, Provider::Github, &path, Some(&token)).await;
        assert_eq!(
            (status, &body["error"]),
            (400, &json!("invalid_request")),
            "{path}"
        );
    }
}

#[tokio::test]
async fn redirect_answers_a_302_to_me_that_the_client_does_not_follow() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    let request = call(
        &sim,
        Provider::Github,
        Method::GET,
        "redirect",
        Some(&token),
    );
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap();
    assert_eq!(location, format!("{}me", sim.api_base(Provider::Github)));
    let followed = crate::support::http().get(location).bearer_auth(&token);
    assert_eq!(status_and_json(followed).await.1["provider"], "github");
}

#[tokio::test]
async fn status_answers_the_status_named_clamped_to_200_through_599() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    for (code, status) in [(201, 201), (418, 418), (503, 503), (100, 200), (999, 599)] {
        let path = format!("status/{code}");
        let answer = get(&sim, Provider::Github, &path, Some(&token)).await;
        assert_eq!(answer, (status, json!({"status": status})), "{code}");
    }
    let post = call(
        &sim,
        Provider::Github,
        Method::POST,
        "status/409",
        Some(&token),
    );
    assert_eq!(post.send().await.unwrap().status(), 409);
    let no_content = get(&sim, Provider::Github, "status/204", Some(&token)).await;
    assert_eq!(no_content.0, 204);
    let (status, body) = get(&sim, Provider::Github, "status/teapot", Some(&token)).await;
    assert_eq!((status, &body["error"]), (400, &json!("invalid_request")));
}

#[tokio::test]
async fn an_unknown_path_is_a_404_and_a_wrong_method_a_405_once_the_token_passes() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    // GitHub serves `api/user` and `api/applications/{client_id}/grant` itself.
    let unknown = [
        "nothing",
        "me/more",
        "status",
        "echoes",
        "users",
        "applications/x",
    ];
    for path in unknown {
        let (status, body) = get(&sim, Provider::Github, path, Some(&token)).await;
        assert_eq!(
            (status, &body["error"]),
            (404, &json!("not_found")),
            "{path}"
        );
        assert_eq!(
            get(&sim, Provider::Github, path, None).await.0,
            401,
            "{path}"
        );
    }
    let post = call(&sim, Provider::Github, Method::POST, "me", Some(&token));
    let response = post.send().await.unwrap();
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers()["allow"], "GET, HEAD");
}

#[tokio::test]
async fn the_providers_own_paths_under_api_still_answer() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    let request = crate::support::http().get(sim.github().user);
    let (status, user) = status_and_json(request.bearer_auth(&token)).await;
    assert_eq!((status, &user["login"]), (200, &json!("ada")));
    assert!(
        sim.github()
            .user
            .starts_with(&sim.api_base(Provider::Github))
    );
}

#[tokio::test]
async fn api_calls_are_logged_and_take_the_faults_injected_on_the_api() {
    let sim = start(&[GITHUB]).await;
    let token = github_token(&sim).await;
    assert_eq!(get(&sim, Provider::Github, "me", None).await.0, 401);
    assert_eq!(get(&sim, Provider::Github, "me", Some(&token)).await.0, 200);
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Api).status(503));
    assert_eq!(get(&sim, Provider::Github, "me", Some(&token)).await.0, 503);
    let api: Vec<(String, Option<String>)> = sim
        .requests()
        .into_iter()
        .filter(|record| record.endpoint == Some(Endpoint::Api))
        .map(|record| (record.outcome, record.authorization_scheme))
        .collect();
    let bearer = Some("Bearer".to_owned());
    let expected = [
        ("invalid_token".to_owned(), None),
        ("ok".to_owned(), bearer.clone()),
        ("fault".to_owned(), bearer),
    ];
    assert_eq!(api, expected);
}
