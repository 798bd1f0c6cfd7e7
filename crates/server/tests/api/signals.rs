//! Signals from providers (docs/api.md), end to end: the simulator signs each signal as the
//! real provider does, the service verifies and acts on it once; forgeries change nothing.
//! Apple and Facebook here; Google's Cross-Account Protection in `signals_risc`.

#[path = "signals_risc.rs"]
mod risc;

use crate::helpers::{
    PASSWORD, PUBLIC_URL, TestApp, assert_problem, ok_json, spawn_app, strings, token,
};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login_simulator::{SignalDelivery, TEST_KEY_A, TEST_KEY_B};

/// The signal `kind` about the simulated user `user`, signed by the simulator.
pub async fn signal(app: &TestApp, kind: &str, user: &str) -> SignalDelivery {
    let url = format!("{}/_control/signals/build", app.sim.base_url());
    let response = app
        .http
        .post(url)
        .json(&json!({"kind": kind, "user": user}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "the simulator builds it");
    response.json().await.unwrap()
}

/// Posts `delivery` to the service, as the provider would.
pub async fn deliver(app: &TestApp, delivery: &SignalDelivery) -> reqwest::Response {
    app.http
        .post(app.url(&delivery.path))
        .header("content-type", &delivery.content_type)
        .body(delivery.body.clone())
        .send()
        .await
        .unwrap()
}

/// The same claims, signed with key B under key A's `kid`: a forgery.
pub fn resigned_with_the_wrong_key(jws: &str) -> String {
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(jws.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    TEST_KEY_B.sign(TEST_KEY_A.kid, &claims)
}

/// Whether the session of `refresh_token` still refreshes; the new token when it does.
pub async fn refreshed(app: &TestApp, refresh_token: &str) -> Option<String> {
    let body = json!({"refresh_token": refresh_token});
    let response = app.post("/auth/refresh", &body, None).await;
    if response.status() != StatusCode::OK {
        return None;
    }
    let login: Value = response.json().await.unwrap();
    Some(login["refresh_token"].as_str().unwrap().to_owned())
}

/// Signs in (or, with a bearer, connects) through Apple as `user_id`.
async fn through_apple(app: &TestApp, user_id: &str, bearer: Option<&str>) -> reqwest::Response {
    let url = app.authorize("apple", bearer).await;
    let fields = app.approve_at_apple(&url, user_id).await;
    let body = json!({"code": fields["code"], "state": fields["state"], "post_body": fields});
    let path = if bearer.is_some() {
        "connect"
    } else {
        "callback"
    };
    app.post(&format!("/auth/oauth/apple/{path}"), &body, bearer)
        .await
}

/// Signs in through Apple as `user_id`, answered 200: the login result.
async fn apple_login(app: &TestApp, user_id: &str) -> Value {
    ok_json(through_apple(app, user_id, None).await).await
}

async fn event_types(app: &TestApp, bearer: &str) -> Vec<String> {
    let events: Value = app.events(bearer).await;
    strings(&events, "type")
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// An app where Grace has signed in through Apple only, and the signal `kind` about her
/// that Apple would send: the app, her login result and the signal.
async fn grace_on_apple_and(kind: &str) -> (TestApp, Value, SignalDelivery) {
    let app = spawn_app().await;
    let grace = apple_login(&app, "1000001").await;
    let signal = signal(&app, kind, "1000001").await;
    (app, grace, signal)
}

/// An app where Pat registered with a password and linked Facebook as the simulator's
/// 583231: the app and Pat's registration.
async fn pat_on_facebook() -> (TestApp, Value) {
    let app = spawn_app().await;
    let (pat, _) = app.pat_linked("facebook").await;
    (app, pat)
}

#[tokio::test]
async fn consent_revoked_at_apple_ends_the_apple_session_while_the_password_session_refreshes() {
    let app = spawn_app().await;
    let pat = app.register("pat@example.com").await;
    let linked = through_apple(&app, "583231", Some(&token(&pat))).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let by_apple = apple_login(&app, "583231").await;
    assert_eq!(by_apple["user"]["id"], pat["user"]["id"]);

    let revoked = signal(&app, "revoke_consent", "583231").await;
    assert_eq!(deliver(&app, &revoked).await.status(), StatusCode::OK);
    assert_eq!(
        deliver(&app, &revoked).await.status(),
        StatusCode::OK,
        "a duplicate: 200"
    );

    assert_eq!(
        refreshed(&app, by_apple["refresh_token"].as_str().unwrap()).await,
        None
    );
    let password_session = pat["refresh_token"].as_str().unwrap();
    assert!(
        refreshed(&app, password_session).await.is_some(),
        "the password session goes on"
    );
    let types = event_types(&app, &token(&pat)).await;
    let revocations = types
        .iter()
        .filter(|t| *t == "provider.consent_revoked")
        .count();
    assert_eq!(revocations, 1, "the duplicate acted on nothing: {types:?}");
    let accounts: Value = app.accounts(&token(&pat)).await;
    assert_eq!(accounts[0]["provider"], "apple", "the link stays");
    app.stop().await;
}

#[tokio::test]
async fn deleting_the_apple_account_that_was_a_users_only_way_in_deletes_the_user() {
    let (app, grace, deleted) = grace_on_apple_and("delete_apple_account").await;
    assert_eq!(deliver(&app, &deleted).await.status(), StatusCode::OK);

    app.assert_unauthorized(&token(&grace)).await;
    assert_eq!(
        refreshed(&app, grace["refresh_token"].as_str().unwrap()).await,
        None
    );
    let again = apple_login(&app, "1000001").await;
    assert_eq!(
        again["is_new_user"], true,
        "the Apple account is free again"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_forged_truncated_or_oversized_apple_notification_changes_nothing() {
    let (app, grace, real) = grace_on_apple_and("delete_apple_account").await;
    let jws = serde_json::from_str::<Value>(&real.body).unwrap()["payload"]
        .as_str()
        .unwrap()
        .to_owned();
    for payload in [
        resigned_with_the_wrong_key(&jws),
        jws[..jws.len() - 10].to_owned(),
    ] {
        let forged = SignalDelivery {
            body: json!({"payload": payload}).to_string(),
            ..real.clone()
        };
        assert_problem(deliver(&app, &forged).await, 400, "InvalidSignal").await;
    }
    let oversized = SignalDelivery {
        body: json!({"payload": "A".repeat(70_000)}).to_string(),
        ..real.clone()
    };
    assert_problem(deliver(&app, &oversized).await, 413, "PayloadTooLarge").await;
    assert_eq!(
        app.get("/users/me", Some(&token(&grace))).await.status(),
        StatusCode::OK
    );
    app.stop().await;
}

#[tokio::test]
async fn a_facebook_data_deletion_removes_the_link_and_its_status_url_answers() {
    let (app, pat) = pat_on_facebook().await;

    let request = signal(&app, "request_data_deletion", "583231").await;
    let answer: Value = deliver(&app, &request).await.json().await.unwrap();
    let code = answer["confirmation_code"].as_str().unwrap();
    let url = answer["url"].as_str().unwrap();
    let path = format!("/auth/oauth/facebook/data-deletion/{code}");
    assert_eq!(url, format!("{PUBLIC_URL}{path}"));
    let again: Value = deliver(&app, &request).await.json().await.unwrap();
    assert_eq!(again, answer, "the same request, the same code");

    let status: Value = app.get_json(&path, None).await;
    assert_eq!(
        (
            status["status"].as_str(),
            status["confirmation_code"].as_str()
        ),
        (Some("completed"), Some(code))
    );
    let accounts: Value = app.accounts(&token(&pat)).await;
    assert_eq!(accounts, json!([]), "the Facebook link is gone");
    let login = app.password_login("pat@example.com", PASSWORD).await;
    assert_eq!(
        login.status(),
        StatusCode::OK,
        "the password still signs pat in"
    );
    app.stop().await;
}

/// A UserRead's email and name.
fn profile(user: &Value) -> (Option<&str>, Option<&str>) {
    (user["email"].as_str(), user["full_name"].as_str())
}

#[tokio::test]
async fn a_facebook_data_deletion_takes_the_profile_a_user_registered_with_through_facebook() {
    let app = spawn_app().await;
    let registered = app.login_at("facebook", "583231").await;
    let bearer = token(&registered);
    let from_facebook = (Some("ada@example.com"), Some("Ada Lovelace"));
    assert_eq!(profile(&registered["user"]), from_facebook);
    let profile_from = || async {
        let export = app.get_json("/users/me/export", Some(&bearer)).await;
        export["profile_from"].clone()
    };
    assert_eq!(profile_from().await, "facebook");
    app.link("github", &bearer, "583231").await;

    let request = signal(&app, "request_data_deletion", "583231").await;
    assert_eq!(deliver(&app, &request).await.status(), StatusCode::OK);

    let me: Value = app.get_json("/users/me", Some(&bearer)).await;
    assert_eq!(profile(&me), (None, None), "{me}");
    assert_eq!(
        (&me["avatar_url"], &me["email_verified"]),
        (&Value::Null, &json!(false))
    );
    assert_eq!(profile_from().await, Value::Null);
    let types = event_types(&app, &bearer).await;
    let newest = [
        "user.profile_erased",
        "account.unlinked",
        "provider.data_deletion_requested",
    ];
    assert_eq!(types[..3], newest.map(String::from), "{types:?}");
    let again = app.login_at("github", "583231").await;
    assert_eq!(
        again["user"]["id"], registered["user"]["id"],
        "GitHub still signs in"
    );
    assert_eq!(again["is_new_user"], false);
    app.stop().await;
}

#[tokio::test]
async fn a_data_deletion_about_an_account_never_linked_is_answered_like_any_other() {
    let app = spawn_app().await;
    let request = signal(&app, "request_data_deletion", "1000002").await;
    let answer = ok_json(deliver(&app, &request).await).await;
    let code = answer["confirmation_code"].as_str().unwrap();
    let status = app
        .get(&format!("/auth/oauth/facebook/data-deletion/{code}"), None)
        .await;
    assert_eq!(status.status(), StatusCode::OK);
    let unknown = app
        .get(
            "/auth/oauth/facebook/data-deletion/0123456789abcdef01234567",
            None,
        )
        .await;
    assert_problem(unknown, 404, "NotFound").await;
    app.stop().await;
}

#[tokio::test]
async fn facebook_deauthorize_ends_the_facebook_sessions_and_a_forged_one_is_refused() {
    let app = spawn_app().await;
    let login = app.login_at("facebook", "583231").await;
    let real = signal(&app, "remove_facebook_app", "583231").await;
    let wrong_secret = social_login_simulator::signals::signed_request(
        "not-the-app-secret",
        &json!({"algorithm": "HMAC-SHA256", "issued_at": time::OffsetDateTime::now_utc().unix_timestamp(), "user_id": "583231"}),
    );
    let forged = SignalDelivery {
        body: format!("signed_request={wrong_secret}"),
        ..real.clone()
    };
    assert_problem(deliver(&app, &forged).await, 400, "InvalidSignal").await;
    let session = login["refresh_token"].as_str().unwrap();
    let session = refreshed(&app, session)
        .await
        .expect("the forgery changed nothing");

    assert_eq!(deliver(&app, &real).await.status(), StatusCode::OK);
    assert_eq!(refreshed(&app, &session).await, None);
    let relogin = app.login_at("facebook", "583231").await;
    assert_eq!(
        relogin["user"]["id"], login["user"]["id"],
        "the link stayed"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_deauthorize_payload_replayed_to_data_deletion_is_refused_and_deletes_nothing() {
    let (app, pat) = pat_on_facebook().await;
    let deauthorize = signal(&app, "remove_facebook_app", "583231").await;
    assert_eq!(deliver(&app, &deauthorize).await.status(), StatusCode::OK);
    let replayed = SignalDelivery {
        path: "/auth/oauth/facebook/data-deletion".into(),
        ..deauthorize.clone()
    };
    assert_problem(deliver(&app, &replayed).await, 400, "InvalidSignal").await;
    let accounts = app.accounts(&token(&pat)).await;
    assert_eq!(accounts[0]["provider"], "facebook", "the link stayed");
    assert_eq!(
        deliver(&app, &deauthorize).await.status(),
        StatusCode::OK,
        "a retry at its own endpoint is answered as before"
    );

    // And the other way round: a deletion request does not act again as a deauthorize.
    let deletion = signal(&app, "request_data_deletion", "583231").await;
    assert_eq!(deliver(&app, &deletion).await.status(), StatusCode::OK);
    let replayed = SignalDelivery {
        path: "/auth/oauth/facebook/deauthorize".into(),
        ..deletion
    };
    assert_problem(deliver(&app, &replayed).await, 400, "InvalidSignal").await;
    app.stop().await;
}

#[tokio::test]
async fn a_login_status_payload_with_code_or_oauth_token_is_no_data_deletion_request() {
    use secrecy::ExposeSecret;
    let (app, pat) = pat_on_facebook().await;
    let secret = app
        .settings()
        .provider(social_login_domain::ProviderKey::FACEBOOK)
        .unwrap()
        .client_secret
        .expose_secret()
        .to_owned();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    for member in ["code", "oauth_token"] {
        let payload = json!({
            "algorithm": "HMAC-SHA256", "issued_at": now, "user_id": "583231",
            member: "AQD-from-the-js-sdk",
        });
        let login_status = social_login_simulator::signals::signed_request(&secret, &payload);
        let delivery = SignalDelivery {
            path: "/auth/oauth/facebook/data-deletion".into(),
            content_type: "application/x-www-form-urlencoded".into(),
            body: format!("signed_request={login_status}"),
        };
        assert_problem(deliver(&app, &delivery).await, 400, "InvalidSignal").await;
    }
    let accounts = app.accounts(&token(&pat)).await;
    assert_eq!(accounts[0]["provider"], "facebook", "the link stayed");
    app.stop().await;
}
