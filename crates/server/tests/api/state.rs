//! Every row of docs/api.md#state-values over HTTP: replay, expiry, purpose, user binding, concurrency.

use crate::helpers::*;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use futures_like::join_all;
use reqwest::StatusCode;
use serde_json::json;
use sha2::{Digest, Sha256};
use social_login_simulator::Endpoint;

mod futures_like {
    /// Awaits every task; a tiny stand-in for `futures::future::join_all`.
    pub async fn join_all<T>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
        let mut out = Vec::with_capacity(tasks.len());
        for task in tasks {
            out.push(task.await.unwrap());
        }
        out
    }
}

#[tokio::test]
async fn a_replayed_state_is_refused() {
    let app = spawn_app().await;
    let approval = app.approval("github", None, "583231").await;
    let first = app.callback("github", &approval).await;
    assert_eq!(first.status(), 200);
    app.assert_state_refused("github", &approval).await;
    app.stop().await;
}

#[tokio::test]
async fn a_state_minted_before_a_restart_works_after_it_only_where_spent_states_survive_it() {
    let mut app = spawn_app().await;
    let approval = app.approval("github", None, "583231").await;
    // Same database, same secret_key, a new process (as a restart or a crash would be).
    app.restart_with(|_| {}).await;
    let response = app.callback("github", &approval).await;
    if crate::STORAGE.redis {
        // Redis kept every spent id: values survive, and stay single use.
        assert_eq!(response.status(), 200);
        app.assert_state_refused("github", &approval).await;
    } else {
        // The memory store forgot what was spent: no value from before is good any more.
        assert_problem(response, 400, "OAuthStateMismatch").await;
        let fresh = app.login_response("583231").await;
        assert_eq!(fresh.status(), 200, "values minted after it work");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_memory_store_holds_at_most_max_entries_and_redis_has_no_such_bound() {
    let app = spawn_app_tuned(|settings| {
        settings.oauth_state_store.max_entries = 2;
        settings.oauth_state_store.max_attempt_entries = 2;
    })
    .await;
    // Each callback spends its state value: an entry of the spent ids.
    app.login("583231").await;
    app.login("1000001").await;
    let third = app.login_response_at("github", "583231").await;
    // A failed password login of a new email takes two attempt counts (its client's and
    // its account's), in a table of their own.
    let attempt = |n: usize| {
        let body =
            serde_json::json!({"email": format!("n{n}@example.com"), "password": "wrong password"});
        let app = &app;
        async move { app.post("/auth/login", &body, None).await }
    };
    assert_problem(attempt(1).await, 401, "InvalidCredentials").await;
    let second = attempt(2).await;
    if crate::STORAGE.redis {
        assert_eq!(third.status(), 200);
        assert_problem(second, 401, "InvalidCredentials").await;
    } else {
        // Full: refused rather than forget an entry early.
        assert_problem(third, 503, "ServiceUnavailable").await;
        assert_problem(second, 503, "ServiceUnavailable").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    let app = spawn_app_tuned(|settings| settings.oauth_state_store.ttl_seconds = 1).await;
    let approval = app.approval("github", None, "583231").await;
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    app.assert_state_refused("github", &approval).await;
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_state_is_refused_before_the_provider_is_called() {
    let app = spawn_app().await;
    let body = serde_json::json!({"code": "whatever", "state": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"});
    let response = app.post("/auth/oauth/github/callback", &body, None).await;
    assert_problem(response, 400, "OAuthStateMismatch").await;
    let token_calls = app
        .sim
        .requests()
        .iter()
        .filter(|record| record.endpoint == Some(Endpoint::Token))
        .count();
    assert_eq!(token_calls, 0);
    app.stop().await;
}

/// A state belongs to its flow and its user: a login state does not connect, a connect
/// state does not sign in, and one user's connect state does not link for another.
#[tokio::test]
async fn a_state_is_refused_by_the_other_flow_and_by_another_user() {
    let app = spawn_app().await;
    let (_, pat) = app.signed_up("pat@example.com").await;
    let (_, sam) = app.signed_up("sam@example.com").await;
    let mismatch = "OAuthStateMismatch";

    let login_state = app.approval("github", None, "1000001").await;
    let connected = app.connect("github", &login_state, &pat).await;
    assert_problem_in("a login state to connect", connected, 400, mismatch).await;

    let connect_state = app.approval("github", Some(&pat), "1000001").await;
    let signed_in = app.callback("github", &connect_state).await;
    assert_problem_in("a connect state to sign in", signed_in, 400, mismatch).await;

    let pats_state = app.approval("github", Some(&pat), "1000001").await;
    let by_sam = app.connect("github", &pats_state, &sam).await;
    assert_problem_in("Pat's connect state for Sam", by_sam, 400, mismatch).await;
    // The refused value is spent: not even its rightful owner can use it now.
    let retry = app.connect("github", &pats_state, &pat).await;
    assert_problem_in("Pat's spent connect state", retry, 400, mismatch).await;
    app.stop().await;
}

#[tokio::test]
async fn an_invalid_bearer_on_authorize_starts_a_login_flow() {
    let app = spawn_app().await;
    let approval = app.approval("github", Some("not-a-token"), "583231").await;
    let response = app.callback("github", &approval).await;
    assert_eq!(response.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn twenty_parallel_callbacks_with_one_state_succeed_exactly_once() {
    let app = spawn_app().await;
    let approval = app.approval("github", None, "583231").await;
    let body = approval.body();
    let tasks = (0..20)
        .map(|_| {
            let http = app.http.clone();
            let url = app.url("/auth/oauth/github/callback");
            let body = body.clone();
            tokio::spawn(async move { http.post(url).json(&body).send().await.unwrap().status() })
        })
        .collect();
    let statuses = join_all(tasks).await;
    let ok = statuses
        .iter()
        .filter(|status| status.as_u16() == 200)
        .count();
    let mismatch = statuses
        .iter()
        .filter(|status| status.as_u16() == 400)
        .count();
    assert_eq!((ok, mismatch), (1, 19), "{statuses:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_flow_bound_to_its_client_is_of_no_use_to_whoever_else_gets_the_redirect() {
    let app = spawn_app().await;
    let binding = "Yd3kQ9vPz-1mN_bX7cLr0sTu2wA5eH8gJ4fK6iO~.aZ";
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(binding.as_bytes()));
    let path = format!("/auth/oauth/github/authorize?binding_challenge={challenge}");
    let url = authorization_url(app.get(&path, None).await).await;
    let approval = app.approve_at_provider(&url, "583231").await;

    // The redirect leaked: its code and state, posted without the client's secret.
    let stolen = app.callback("github", &approval).await;
    assert_problem(stolen, 400, "OAuthStateMismatch").await;
    let mut body = approval.body();
    body["binding"] = json!(binding.replace('Y', "y"));
    let guessed = app.post("/auth/oauth/github/callback", &body, None).await;
    assert_problem(guessed, 400, "OAuthStateMismatch").await;
    // The client that started the flow still finishes it: nothing was spent.
    body["binding"] = json!(binding);
    let finished = app.post("/auth/oauth/github/callback", &body, None).await;
    assert_eq!(finished.status(), StatusCode::OK);

    // A challenge of one character too many is no SHA-256.
    let refused = app.get(&format!("{path}A"), None).await;
    assert_problem(refused, 422, "ValidationError").await;
    app.stop().await;
}
