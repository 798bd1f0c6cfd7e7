//! The operator API (docs/api.md#operator-api) end to end: admin keys, each endpoint, the
//! lock on every way in, pagination while users are added, and what the user and the
//! webhook receiver are told.

use crate::helpers::{
    Options, TestApp, assert_problem, spawn_app_tuned, spawn_app_with, strings, token, user_id,
};
use crate::webhooks::receiver::Receiver;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login::settings::Settings;
use social_login_domain::ProviderKey;
use social_login_persistence::{DatabaseOptions, connect, seed_provider_users};
use social_login_security::AdminKeyHash;
use std::collections::BTreeSet;
use std::time::Duration;

/// The admin key of every app here (its hash is what the configuration holds).
pub const ADMIN_KEY: &str = "sla_the-api-tests-admin-key-0123456789abcdefghijklm";
const OTHER_KEY: &str = "sla_another-admin-key-of-the-api-tests-0123456789ab";

pub(crate) fn admin_keys(settings: &mut Settings) {
    settings.admin.api_keys = vec![AdminKeyHash::of(ADMIN_KEY).to_string()];
}

pub(crate) fn with_admin() -> Options {
    Options {
        tune: admin_keys,
        ..Options::default()
    }
}

/// The first 8 hex digits of the key's SHA-256: its id in events.
fn key_id(key: &str) -> String {
    AdminKeyHash::of(key).id().to_string()
}

async fn as_admin(app: &TestApp, method: &str, path: &str) -> reqwest::Response {
    as_key(app, method, path, Some(ADMIN_KEY)).await
}

async fn as_key(app: &TestApp, method: &str, path: &str, key: Option<&str>) -> reqwest::Response {
    let mut request = app.http.request(method.parse().unwrap(), app.url(path));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.unwrap()
}

pub(crate) async fn admin_json(app: &TestApp, path: &str) -> Value {
    let response = as_admin(app, "GET", path).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.json().await.unwrap()
}

pub(crate) async fn admin_ok(app: &TestApp, method: &str, path: &str) {
    let response = as_admin(app, method, path).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT, "{method} {path}");
}

/// A refresh with `login`'s refresh token.
async fn refresh(app: &TestApp, login: &Value) -> reqwest::Response {
    app.refresh(&login["refresh_token"]).await
}

#[tokio::test]
async fn without_a_configured_key_the_admin_routes_do_not_exist() {
    let app = spawn_app_with(Options::default()).await;
    let ada = app.login("583231").await;
    for (method, path) in [
        ("GET", "/admin/users".to_owned()),
        ("GET", format!("/admin/users/{}", user_id(&ada))),
        ("POST", format!("/admin/users/{}/lock", user_id(&ada))),
    ] {
        let response = as_key(&app, method, &path, Some(ADMIN_KEY)).await;
        assert_problem(response, 404, "NotFound").await;
    }
    // Documented all the same, with their own scheme.
    let openapi = app.get_json("/openapi.json", None).await;
    assert!(openapi["paths"]["/admin/users"]["get"].is_object());
    assert!(openapi["components"]["securitySchemes"]["admin_key"].is_object());
    assert_eq!(
        openapi["paths"]["/admin/users/{id}/lock"]["post"]["security"][0]["admin_key"],
        json!([])
    );
    app.stop().await;
}

#[tokio::test]
async fn only_a_configured_key_opens_the_admin_api_and_a_removed_one_is_refused_after_a_restart() {
    let mut app = spawn_app_with(with_admin()).await;
    let (ada, user_token) = app.signed_in("583231").await;
    let refresh_token = ada["refresh_token"].as_str().unwrap().to_owned();
    for key in [
        None,
        Some(OTHER_KEY),
        Some(user_token.as_str()),
        Some(refresh_token.as_str()),
        Some(""),
    ] {
        let response = as_key(&app, "GET", "/admin/users", key).await;
        let body = assert_problem(response, 401, "Unauthorized").await;
        assert!(!body.to_string().contains(&user_token));
    }
    assert_eq!(
        as_admin(&app, "GET", "/admin/users").await.status(),
        StatusCode::OK
    );

    app.restart_with(|settings| {
        settings.admin.api_keys = vec![AdminKeyHash::of(OTHER_KEY).to_string()];
    })
    .await;
    let removed = as_key(&app, "GET", "/admin/users", Some(ADMIN_KEY)).await;
    assert_problem(removed, 401, "Unauthorized").await;
    let added = as_key(&app, "GET", "/admin/users", Some(OTHER_KEY)).await;
    assert_eq!(added.status(), StatusCode::OK);

    app.restart_with(|settings| settings.admin.api_keys.clear())
        .await;
    let gone = as_key(&app, "GET", "/admin/users", Some(OTHER_KEY)).await;
    assert_problem(gone, 404, "NotFound").await;
    assert!(
        !crate::helpers::logs().contains(ADMIN_KEY),
        "an admin key never reaches a log line"
    );
    app.stop().await;
}

#[tokio::test]
async fn users_are_found_by_email_by_provider_and_by_provider_account() {
    let app = spawn_app_with(with_admin()).await;
    let ada = app.login("583231").await;
    let grace = app.login_at("google", "1000001").await;
    let pat = app.register("pat@example.com").await;

    let by_email = admin_json(&app, "/admin/users?email=ADA@example.com").await;
    let users = by_email["users"].as_array().unwrap();
    assert_eq!(users.len(), 1);
    assert_eq!(users[0]["id"], ada["user"]["id"]);
    assert_eq!(users[0]["email"], "ada@example.com");
    assert_eq!(users[0]["locked"], false);
    assert_eq!(users[0]["has_password"], false);
    assert!(by_email["next_cursor"].is_null());

    let by_provider = admin_json(&app, "/admin/users?provider=google").await;
    let ids: Vec<&Value> = by_provider["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| &u["id"])
        .collect();
    assert_eq!(ids, [&grace["user"]["id"]]);

    let by_account = admin_json(&app, "/admin/users?provider=github&subject=583231").await;
    assert_eq!(by_account["users"][0]["id"], ada["user"]["id"]);
    let nobody = admin_json(&app, "/admin/users?provider=github&subject=1000001").await;
    assert_eq!(nobody["users"], json!([]));

    let everyone = admin_json(&app, "/admin/users").await;
    let all: BTreeSet<&str> = strings(&everyone["users"], "id").into_iter().collect();
    let expected: BTreeSet<&str> = [&ada, &grace, &pat]
        .iter()
        .map(|login| login["user"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(all, expected);

    for bad in [
        "/admin/users?limit=0",
        "/admin/users?limit=101",
        "/admin/users?limit=ten",
        "/admin/users?cursor=not-a-cursor",
        "/admin/users?cursor=AAAA",
        "/admin/users?subject=583231",
        "/admin/users?email=ada@example.com&provider=github",
        "/admin/users?email=not-an-email",
        "/admin/users?provider=Not%20A%20Key",
    ] {
        let response = as_admin(&app, "GET", bad).await;
        assert_problem(response, 422, "ValidationError").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn pages_list_every_existing_user_once_while_users_are_added() {
    const EXISTING: u64 = 130;
    let app = spawn_app_with(with_admin()).await;
    let seeder = connect(&DatabaseOptions::new(app.database_url().to_owned()))
        .await
        .unwrap();
    seed_provider_users(&seeder, ProviderKey::GITHUB, "old", EXISTING)
        .await
        .unwrap();
    let existing: BTreeSet<String> = {
        let mut ids = BTreeSet::new();
        let mut cursor = String::new();
        for _ in 0..10 {
            let page = admin_json(&app, &format!("/admin/users?limit=100{cursor}")).await;
            for user in page["users"].as_array().unwrap() {
                ids.insert(user["id"].as_str().unwrap().to_owned());
            }
            match page["next_cursor"].as_str() {
                Some(next) => cursor = format!("&cursor={next}"),
                None => break,
            }
        }
        ids
    };
    assert_eq!(existing.len() as u64, EXISTING);

    // Page by 7 while another writer adds users between (and during) the page reads.
    let writer = tokio::spawn(async move {
        for round in 0..12 {
            seed_provider_users(&seeder, ProviderKey::GITHUB, &format!("new{round}x"), 5)
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    });
    let mut listed = Vec::new();
    let mut cursor = String::new();
    let mut pages = 0;
    loop {
        pages += 1;
        assert!(pages < 200, "paging ends");
        let page = admin_json(&app, &format!("/admin/users?limit=7{cursor}")).await;
        let users = page["users"].as_array().unwrap();
        assert!(users.len() <= 7);
        listed.extend(users.iter().map(|u| u["id"].as_str().unwrap().to_owned()));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => break,
        }
    }
    writer.await.unwrap();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "no user is listed twice");
    for id in &existing {
        assert!(unique.contains(id), "{id} was skipped");
    }
    assert!(pages > EXISTING as usize / 7, "{pages} pages of at most 7");
    app.stop().await;
}

#[tokio::test]
async fn a_user_shows_its_links_its_sessions_and_whether_it_is_locked() {
    let app = spawn_app_with(with_admin()).await;
    let ada = app.login("583231").await;
    app.link("google", &token(&ada), "583231").await;
    app.login("583231").await;

    let path = format!("/admin/users/{}", user_id(&ada));
    let user = admin_json(&app, &path).await;
    assert_eq!(user["id"], ada["user"]["id"]);
    assert_eq!(user["email"], "ada@example.com");
    assert_eq!(user["locked"], false);
    assert_eq!(user["active_sessions"], 2);
    let providers = strings(&user["linked_accounts"], "provider");
    assert_eq!(providers, ["github", "google"]);
    let link = user["linked_accounts"][0].as_object().unwrap();
    let mut fields: Vec<&str> = link.keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        ["created_at", "email", "id", "provider", "scopes"],
        "never a token"
    );

    for missing in [
        format!("/admin/users/{}", uuid::Uuid::now_v7()),
        "/admin/users/not-an-id".to_owned(),
    ] {
        assert_problem(as_admin(&app, "GET", &missing).await, 404, "NotFound").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_locked_user_gets_in_by_no_way_and_unlocking_gives_back_logins_not_sessions() {
    let app = spawn_app_with(Options {
        auto_link_by_email: true,
        ..with_admin()
    })
    .await;
    let pat = app.register("pat@example.com").await;
    let ada = app.login("583231").await;
    let id = user_id(&ada);

    admin_ok(&app, "POST", &format!("/admin/users/{id}/lock")).await;
    assert_eq!(
        admin_json(&app, &format!("/admin/users/{id}")).await["locked"],
        true
    );
    assert_eq!(
        admin_json(&app, &format!("/admin/users/{id}")).await["active_sessions"],
        0
    );
    assert_problem(
        app.get("/users/me", Some(&token(&ada))).await,
        403,
        "UserLocked",
    )
    .await;
    assert_problem(
        app.get("/auth/oauth/accounts", Some(&token(&ada))).await,
        403,
        "UserLocked",
    )
    .await;
    assert_problem(refresh(&app, &ada).await, 403, "UserLocked").await;
    assert_problem(app.login_response("583231").await, 403, "UserLocked").await;
    // Her GitHub account stays linked: its new grant is not revoked, since at GitHub that
    // would end the grant her link keeps as well.
    assert!(
        app.revocations_at(social_login_simulator::Provider::Github)
            .is_empty()
    );
    // Another provider account of the same person, linked by its verified email: no way
    // in either, and no link made.
    assert_problem(
        app.login_response_at("google", "583231").await,
        403,
        "UserLocked",
    )
    .await;
    // The others are untouched.
    assert_eq!(
        app.get("/users/me", Some(&token(&pat))).await.status(),
        StatusCode::OK
    );

    admin_ok(&app, "POST", &format!("/admin/users/{id}/unlock")).await;
    assert_problem(refresh(&app, &ada).await, 401, "InvalidCredentials").await;
    let again = app.login("583231").await;
    assert_eq!(user_id(&again), id);
    let user = admin_json(&app, &format!("/admin/users/{id}")).await;
    assert_eq!(
        user["linked_accounts"].as_array().unwrap().len(),
        1,
        "no link while locked"
    );
    let events = app.get_json("/users/me/events", Some(&token(&again))).await;
    for event in events.as_array().unwrap() {
        let by_admin = event.get("actor").is_some();
        assert_eq!(
            event["ip"].is_null(),
            by_admin,
            "the user sees their own address, never the operator's: {event}"
        );
        assert!(event.get("key_id").is_none(), "{event}");
    }
    let by_admin: Vec<(&str, &Value)> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event.get("actor").is_some())
        .map(|event| (event["type"].as_str().unwrap(), &event["actor"]))
        .collect();
    assert_eq!(
        by_admin,
        [
            ("user.unlocked", &json!("admin")),
            ("user.locked", &json!("admin"))
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn a_locked_password_user_is_told_so_only_with_the_right_password() {
    let app = spawn_app_with(with_admin()).await;
    let pat = app.register("pat@example.com").await;
    admin_ok(
        &app,
        "POST",
        &format!("/admin/users/{}/lock", user_id(&pat)),
    )
    .await;
    let server = &app;
    let login = |password: &'static str| async move {
        let body = json!({"email": "pat@example.com", "password": password});
        server.post("/auth/login", &body, None).await
    };
    assert_problem(login("wrong password!").await, 401, "InvalidCredentials").await;
    assert_problem(login(crate::helpers::PASSWORD).await, 403, "UserLocked").await;
    app.stop().await;
}

#[tokio::test]
async fn ending_sessions_stops_every_refresh_token_and_nothing_else() {
    let app = spawn_app_with(with_admin()).await;
    let first = app.login("583231").await;
    let second = app.login("583231").await;
    let id = user_id(&first);
    admin_ok(&app, "POST", &format!("/admin/users/{id}/sessions/revoke")).await;
    for login in [&first, &second] {
        assert_problem(refresh(&app, login).await, 401, "InvalidCredentials").await;
    }
    let user = admin_json(&app, &format!("/admin/users/{id}")).await;
    assert_eq!(user["active_sessions"], 0);
    assert_eq!(user["locked"], false);
    let again = app.login("583231").await;
    assert_eq!(refresh(&app, &again).await.status(), StatusCode::OK);
    let missing = format!("/admin/users/{}/sessions/revoke", uuid::Uuid::now_v7());
    assert_problem(as_admin(&app, "POST", &missing).await, 404, "NotFound").await;
    app.stop().await;
}

#[tokio::test]
async fn unlinking_keeps_the_last_way_in_unless_forced_which_locks() {
    let (receiver, url) = Receiver::start(0).await;
    let app = spawn_app_with(Options {
        webhook_url: Some(url),
        tune: admin_keys,
        ..Options::default()
    })
    .await;
    let ada = app.login("583231").await;
    app.link("google", &token(&ada), "583231").await;
    let id = user_id(&ada);

    admin_ok(&app, "DELETE", &format!("/admin/users/{id}/links/github")).await;
    let last = as_admin(&app, "DELETE", &format!("/admin/users/{id}/links/google")).await;
    assert_problem(last, 409, "LastLoginMethod").await;
    let not_linked = as_admin(&app, "DELETE", &format!("/admin/users/{id}/links/github")).await;
    assert_problem(not_linked, 404, "OAuthAccountNotFound").await;
    let bad_force = format!("/admin/users/{id}/links/google?force=yes");
    assert_problem(
        as_admin(&app, "DELETE", &bad_force).await,
        422,
        "ValidationError",
    )
    .await;
    let user = admin_json(&app, &format!("/admin/users/{id}")).await;
    assert_eq!(user["linked_accounts"].as_array().unwrap().len(), 1);
    assert_eq!(user["locked"], false);

    admin_ok(
        &app,
        "DELETE",
        &format!("/admin/users/{id}/links/google?force=true"),
    )
    .await;
    let user = admin_json(&app, &format!("/admin/users/{id}")).await;
    assert_eq!(user["linked_accounts"], json!([]));
    assert_eq!(user["locked"], true);
    assert_eq!(user["active_sessions"], 0);

    // Each change reached the receiver in its own words, naming the key by its id only (so
    // did the two looks at the account, as reads).
    receiver
        .wait_until(|r| {
            r.accepted()
                .iter()
                .filter(|d| d.json()["data"]["actor"] == "admin")
                .count()
                >= 5
        })
        .await;
    let mut by_admin: Vec<(String, String, String)> = receiver
        .accepted()
        .iter()
        .map(|d| d.json())
        .filter(|body| body["data"]["actor"] == "admin" && body["type"] != "admin.read")
        .map(|body| {
            (
                body["type"].as_str().unwrap().to_owned(),
                body["data"]["provider"].as_str().unwrap_or("-").to_owned(),
                body["data"]["key_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    by_admin.sort();
    let id_of_key = key_id(ADMIN_KEY);
    assert_eq!(
        by_admin,
        [
            (
                "account.unlinked".into(),
                "github".into(),
                id_of_key.clone()
            ),
            (
                "account.unlinked".into(),
                "google".into(),
                id_of_key.clone()
            ),
            ("user.locked".into(), "-".into(), id_of_key),
        ]
    );
    let everything: String = receiver.accepted().iter().map(|d| d.body.clone()).collect();
    assert!(!everything.contains(ADMIN_KEY));
    assert!(!everything.contains(&AdminKeyHash::of(ADMIN_KEY).to_string()[7..]));
    app.stop().await;
}

#[tokio::test]
async fn an_unlink_ends_the_sessions_that_provider_account_began() {
    let app = spawn_app_with(with_admin()).await;
    let through_github = app.login("583231").await;
    app.link("google", &token(&through_github), "583231").await;
    let through_google = app.login_at("google", "583231").await;
    let id = user_id(&through_github);

    admin_ok(&app, "DELETE", &format!("/admin/users/{id}/links/github")).await;

    app.assert_refresh_refused(&through_github["refresh_token"])
        .await;
    let kept = refresh(&app, &through_google).await;
    assert_eq!(kept.status(), reqwest::StatusCode::OK, "Google's session");
    app.stop().await;
}

#[tokio::test]
async fn deleting_a_user_is_the_users_own_deletion() {
    let app = spawn_app_with(with_admin()).await;
    let ada = app.login("583231").await;
    let grace = app.login("1000001").await;
    let id = user_id(&ada);
    admin_ok(&app, "DELETE", &format!("/admin/users/{id}")).await;
    app.assert_unauthorized(&token(&ada)).await;
    assert_problem(refresh(&app, &ada).await, 401, "InvalidCredentials").await;
    let path = format!("/admin/users/{id}");
    assert_problem(as_admin(&app, "GET", &path).await, 404, "NotFound").await;
    assert_problem(as_admin(&app, "DELETE", &path).await, 404, "NotFound").await;
    // The same person signs up anew; the other user is untouched.
    let again = app.login("583231").await;
    assert_eq!(again["is_new_user"], true);
    assert_ne!(user_id(&again), id);
    assert_eq!(
        app.get("/users/me", Some(&token(&grace))).await.status(),
        StatusCode::OK
    );
    app.stop().await;
}

/// Behind the test itself as a trusted proxy, so `X-Forwarded-For` names the client.
fn admin_behind_a_proxy() -> Options {
    Options {
        trusted_proxies: vec!["127.0.0.1/32".into()],
        ..with_admin()
    }
}

async fn as_key_from(app: &TestApp, client: &str, key: &str) -> reqwest::Response {
    app.http
        .get(app.url("/admin/users?limit=1"))
        .header("x-forwarded-for", client)
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn ten_wrong_keys_in_a_minute_make_that_clients_next_request_429_whatever_its_key() {
    let app = spawn_app_with(admin_behind_a_proxy()).await;
    let guesser = "198.51.100.66";
    for _ in 0..10 {
        let wrong = as_key_from(&app, guesser, OTHER_KEY).await;
        assert_problem(wrong, 401, "Unauthorized").await;
    }
    let refused = as_key_from(&app, guesser, ADMIN_KEY).await;
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_problem(refused, 429, "RateLimited").await;

    let support = as_key_from(&app, "203.0.113.7", ADMIN_KEY).await;
    assert_eq!(
        support.status(),
        StatusCode::OK,
        "another client is not refused"
    );
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    assert!(metrics.contains("social_login_key_attempts_throttled_total"));
    app.stop().await;
}

#[tokio::test]
async fn wrong_keys_sent_at_once_are_answered_as_wrong_no_more_than_ten_times() {
    let app = spawn_app_with(admin_behind_a_proxy()).await;
    let guesses = (0..30).map(|_| as_key_from(&app, "198.51.100.67", OTHER_KEY));
    let statuses: Vec<u16> = futures_util::future::join_all(guesses)
        .await
        .iter()
        .map(|answer| answer.status().as_u16())
        .collect();
    let wrong = statuses.iter().filter(|status| **status == 401).count();
    let refused = statuses.iter().filter(|status| **status == 429).count();
    assert_eq!(wrong + refused, 30, "{statuses:?}");
    assert!(
        wrong <= 10,
        "each guess is judged by its own count: {statuses:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn with_an_admin_bind_the_operator_api_answers_on_its_own_listener_only() {
    let app = spawn_app_tuned(|settings| {
        admin_keys(settings);
        settings.admin.bind = Some("127.0.0.1:0".into());
    })
    .await;
    let public = as_admin(&app, "GET", "/admin/users").await;
    assert_problem(public, 404, "NotFound").await;

    let url = app
        .admin_url("/admin/users")
        .expect("a listener of its own");
    let own = app
        .http
        .get(&url)
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), StatusCode::OK);
    let other = app.admin_url("/auth/oauth/providers").unwrap();
    let elsewhere = app.http.get(&other).send().await.unwrap();
    assert_problem(elsewhere, 404, "NotFound").await;
    let guess = app
        .http
        .get(&url)
        .bearer_auth(OTHER_KEY)
        .send()
        .await
        .unwrap();
    assert_problem(guess, 401, "Unauthorized").await;
    app.stop().await;
}
