//! The authorize endpoint: client, redirect URI, PKCE method, identity choice.

use super::support::*;
use social_login_simulator::{Endpoint, SimUser};

#[tokio::test]
async fn a_registered_client_is_redirected_back_with_a_code_and_the_state() {
    let sim = start().await;
    let response = authorize_response(
        &sim,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", CALLBACK),
            ("state", "xyz"),
            ("scope", "read:user"),
        ],
    )
    .await;
    assert_eq!(response.status(), 302);
    let location = location(&response);
    assert!(location.as_str().starts_with(CALLBACK), "{location}");
    let query = redirect_query(&response);
    assert_eq!(query["state"], "xyz");
    assert_eq!(query["code"].len(), 20);
}

#[tokio::test]
async fn without_a_redirect_uri_the_registered_callback_is_used() {
    let sim = start().await;
    let response = authorize_response(&sim, &[("client_id", CLIENT_ID)]).await;
    assert!(location(&response).as_str().starts_with(CALLBACK));
}

#[tokio::test]
async fn a_sub_path_of_the_callback_is_accepted() {
    let sim = start().await;
    let deeper = format!("{CALLBACK}/deeper");
    let response =
        authorize_response(&sim, &[("client_id", CLIENT_ID), ("redirect_uri", &deeper)]).await;
    assert!(location(&response).as_str().starts_with(&deeper));
}

#[tokio::test]
async fn an_unknown_client_gets_an_error_page_not_a_redirect() {
    let sim = start().await;
    let response =
        authorize_response(&sim, &[("client_id", "nobody"), ("redirect_uri", CALLBACK)]).await;
    assert_eq!(response.status(), 404);
    assert!(response.headers().get("location").is_none());
}

#[tokio::test]
async fn a_foreign_redirect_uri_is_reported_to_the_registered_callback() {
    let sim = start().await;
    let response = authorize_response(
        &sim,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", "http://127.0.0.1:4001/auth/callback/github"),
            ("state", "s"),
        ],
    )
    .await;
    assert_eq!(response.status(), 302);
    assert!(location(&response).as_str().starts_with(CALLBACK));
    let query = redirect_query(&response);
    assert_eq!(query["error"], "redirect_uri_mismatch");
    assert_eq!(query["state"], "s");
    assert!(!query.contains_key("code"));
}

#[tokio::test]
async fn a_plain_pkce_challenge_is_refused() {
    let sim = start().await;
    for method in [Some("plain"), None] {
        let mut params = vec![("client_id", CLIENT_ID), ("code_challenge", CHALLENGE)];
        params.extend(method.map(|m| ("code_challenge_method", m)));
        let query = authorize(&sim, &params).await;
        assert_eq!(query["error"], "invalid_request", "method {method:?}");
    }
}

#[tokio::test]
async fn the_deny_knob_redirects_with_access_denied() {
    let sim = start().await;
    let query = authorize(
        &sim,
        &[("client_id", CLIENT_ID), ("sim_deny", "1"), ("state", "s")],
    )
    .await;
    assert_eq!(query["error"], "access_denied");
    assert_eq!(query["state"], "s");
}

#[tokio::test]
async fn a_login_hint_names_the_user_to_approve_as() {
    let sim = start().await;
    sim.add_user(SimUser::new("7", "grace"));
    let token = {
        let query = authorize(&sim, &[("client_id", CLIENT_ID), ("login_hint", "grace")]).await;
        let (_, body) = exchange(
            &sim,
            &[
                ("client_id", CLIENT_ID),
                ("client_secret", CLIENT_SECRET),
                ("code", &query["code"]),
            ],
        )
        .await;
        body["access_token"].as_str().unwrap().to_owned()
    };
    let user: serde_json::Value = http()
        .get(&sim.github().user)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(user["login"], "grace");
    assert_eq!(user["id"], 7);
}

#[tokio::test]
async fn an_unknown_login_hint_is_an_error_page() {
    let sim = start().await;
    let response =
        authorize_response(&sim, &[("client_id", CLIENT_ID), ("sim_user", "nobody")]).await;
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn the_log_records_the_challenge_and_scope_the_authorize_received() {
    let sim = start().await;
    code_with_pkce(&sim).await;
    let record = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Authorize))
        .unwrap();
    assert_eq!(record.code_challenge.as_deref(), Some(CHALLENGE));
    assert_eq!(record.code_challenge_method.as_deref(), Some("S256"));
    assert_eq!(record.scope.as_deref(), Some("read:user user:email"));
    assert_eq!(record.outcome, "ok");
}
