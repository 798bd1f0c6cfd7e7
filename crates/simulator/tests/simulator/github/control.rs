//! The `/_control` HTTP API and its Rust twin on the handle.

use super::support::*;
use social_login_simulator::{Endpoint, Fault, Provider};

#[tokio::test]
async fn posting_an_identity_makes_it_the_one_approved() {
    let sim = start().await;
    let response = http()
        .post(format!("{}/_control/identity", sim.base_url()))
        .json(&serde_json::json!({"id": 99, "login": "linus", "public_email": "l@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    let token = access_token(&sim, "read:user").await;
    let user: serde_json::Value = http()
        .get(&sim.github().user)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(user["login"], "linus");
    assert_eq!(user["email"], "l@example.com");
}

#[tokio::test]
async fn a_posted_fault_replaces_the_answer_until_cleared() {
    let sim = start().await;
    let faults = format!("{}/_control/faults", sim.base_url());
    let posted = http()
        .post(&faults)
        .json(&serde_json::json!({"provider": "github", "endpoint": "user", "status": 502}))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 204);
    let token = access_token(&sim, "read:user").await;
    let faulty = http()
        .get(&sim.github().user)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(faulty.status(), 502);
    assert_eq!(http().delete(&faults).send().await.unwrap().status(), 204);
    let healed = http()
        .get(&sim.github().user)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(healed.status(), 200);
}

#[tokio::test]
async fn an_error_in_200_fault_looks_like_github_refusing_the_code() {
    let sim = start().await;
    sim.set_fault(
        Fault::new(Provider::Github, Endpoint::Token).error_in_200("bad_verification_code"),
    );
    let code = code_with_pkce(&sim).await;
    let (status, body) = exchange(&sim, &[("code", &code)]).await;
    assert_eq!(status, 200);
    assert_eq!(body["error"], "bad_verification_code");
}

#[tokio::test]
async fn a_garbage_fault_answers_something_that_is_not_json() {
    let sim = start().await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Emails).garbage());
    let token = access_token(&sim, "user:email").await;
    let response = http()
        .get(&sim.github().emails)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.json::<serde_json::Value>().await.is_err());
}

#[tokio::test]
async fn the_log_is_served_over_http_without_secrets() {
    let sim = start().await;
    let code = code_with_pkce(&sim).await;
    exchange(
        &sim,
        &[
            ("client_id", CLIENT_ID),
            ("client_secret", CLIENT_SECRET),
            ("code", &code),
            ("code_verifier", VERIFIER),
        ],
    )
    .await;
    let log = http()
        .get(format!("{}/_control/log", sim.base_url()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let records: Vec<serde_json::Value> = serde_json::from_str(&log).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["endpoint"], "token");
    assert_eq!(records[1]["client_auth"], "body");
    assert_eq!(records[1]["code_verifier_present"], true);
    assert!(!log.contains(CLIENT_SECRET) && !log.contains(VERIFIER) && !log.contains(&code));
}

#[tokio::test]
async fn an_explicit_shutdown_stops_the_server() {
    let sim = start().await;
    let url = sim.github().user;
    sim.shutdown().await;
    assert!(http().get(&url).send().await.is_err());
}
