//! The `/_control` HTTP API and its Rust twin on the handle, driven through a GitHub app.

use crate::support::fixtures::{GITHUB, start};
use crate::support::{VERIFIER, http, refusal};
use serde_json::json;
use social_login_simulator::{Endpoint, Fault, Provider};

#[tokio::test]
async fn posting_an_identity_makes_it_the_one_approved() {
    let client = GITHUB.started().await;
    let identity = json!({"id": 99, "login": "linus", "public_email": "l@example.com"});
    assert_eq!(client.control("identity", Some(identity)).await, 204);
    let user = client.profile("read:user").await;
    assert_eq!(
        (user["login"].as_str(), user["email"].as_str()),
        (Some("linus"), Some("l@example.com"))
    );
}

#[tokio::test]
async fn a_posted_fault_replaces_the_answer_until_cleared() {
    let client = GITHUB.started().await;
    let fault = json!({"provider": "github", "endpoint": "user", "status": 502});
    assert_eq!(client.control("faults", Some(fault)).await, 204);
    let token = client.access_token("read:user").await;
    assert_eq!(client.userinfo(Some(&token)).await.0, 502);
    assert_eq!(client.last_outcome(), "fault");
    assert_eq!(client.clear_faults().await, 204);
    assert_eq!(client.userinfo(Some(&token)).await.0, 200);
}

#[tokio::test]
async fn an_error_in_200_fault_looks_like_github_refusing_the_code() {
    let sim = start(&[GITHUB]).await;
    sim.set_fault(
        Fault::new(Provider::Github, Endpoint::Token).error_in_200("bad_verification_code"),
    );
    let client = GITHUB.client(&sim);
    let answer = client.redeem_fresh(GITHUB.scope).await;
    assert_eq!(refusal(&answer), (200, "bad_verification_code"));
}

#[tokio::test]
async fn a_garbage_fault_answers_something_that_is_not_json() {
    let sim = start(&[GITHUB]).await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Emails).garbage());
    let client = GITHUB.client(&sim);
    let token = client.access_token("user:email").await;
    let response = http()
        .get(client.urls().emails.unwrap())
        .bearer_auth(&token)
        .send()
        .await;
    let response = response.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.json::<serde_json::Value>().await.is_err());
}

#[tokio::test]
async fn the_log_is_served_over_http_without_secrets() {
    let sim = start(&[GITHUB]).await;
    let client = GITHUB.client(&sim);
    let code = client.code(GITHUB.scope).await;
    client.redeem(&code).await;
    let log = http()
        .get(format!("{}/_control/log", sim.base_url()))
        .send()
        .await
        .unwrap();
    let log = log.text().await.unwrap();
    let records: Vec<serde_json::Value> = serde_json::from_str(&log).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["endpoint"], "token");
    assert_eq!(records[1]["client_auth"], "body");
    assert_eq!(records[1]["code_verifier_present"], true);
    assert!(!log.contains(GITHUB.secret) && !log.contains(VERIFIER) && !log.contains(&code));
}

#[tokio::test]
async fn an_explicit_shutdown_stops_the_server() {
    let sim = start(&[GITHUB]).await;
    let url = sim.github().user;
    sim.shutdown().await;
    assert!(http().get(&url).send().await.is_err());
}

#[tokio::test]
async fn a_fault_on_a_revocation_endpoint_answers_instead_and_revokes_nothing() {
    let sim = start(&[crate::support::fixtures::DISCORD]).await;
    let client = crate::support::fixtures::DISCORD.client(&sim);
    let token = client.access_token("identify").await;
    sim.set_fault(Fault::new(Provider::Discord, Endpoint::Revoke).status(500));
    assert_eq!(client.revoke(&token, "access_token").await.0, 500);
    assert!(sim.revocations().is_empty());
    assert_eq!(client.userinfo(Some(&token)).await.0, 200);
}
