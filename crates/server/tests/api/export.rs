//! The export (docs/api.md#export): everything the service holds about a user, as one
//! document, for the user and for support; and nothing secret, whatever the user has.

use crate::admin::{admin_json, with_admin};
use crate::helpers::{PASSWORD, assert_problem_in, spawn_app_with, strings, token};
use serde_json::Value;

#[tokio::test]
async fn a_user_exports_everything_held_about_them_and_no_secret() {
    let app = spawn_app_with(with_admin()).await;
    let (registered, bearer) = app.pat_linked("github").await;
    let again = app
        .http
        .post(app.url("/auth/login"))
        .header("user-agent", "Pat's phone/1.0")
        .json(&serde_json::json!({"email": "pat@example.com", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    let again: Value = again.json().await.unwrap();

    let export = app.get("/users/me/export", Some(&bearer)).await;
    assert_eq!(export.status(), reqwest::StatusCode::OK);
    let text = export.text().await.unwrap();
    let export: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(export["user"]["email"], "pat@example.com");
    assert_eq!(export["linked_accounts"][0]["provider"], "github");
    assert_eq!(
        export["linked_accounts"][0]["subject"], "583231",
        "the provider's id of the account is held, so it is exported"
    );
    assert_eq!(export["linked_accounts"][0]["disabled"], false);
    // Everything the account list shows of a link, its subject and whether it is disabled.
    let listed = app.get_json("/auth/oauth/accounts", Some(&bearer)).await;
    let keys = |link: &Value| -> Vec<String> {
        let mut keys: Vec<String> = link.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    let mut expected = keys(&listed[0]);
    expected.extend(["subject".to_owned(), "disabled".to_owned()]);
    expected.sort();
    assert_eq!(keys(&export["linked_accounts"][0]), expected);
    assert_eq!(export["sessions"].as_array().unwrap().len(), 2);
    let types = strings(&export["events"], "type");
    for wanted in ["user.registered", "account.linked", "user.login"] {
        assert!(types.contains(&wanted), "{wanted} in {types:?}");
    }
    // What the service keeps of each event's request goes with it.
    let events = export["events"].as_array().unwrap();
    let agents: Vec<&Value> = events.iter().map(|event| &event["user_agent"]).collect();
    assert!(
        agents.contains(&&Value::from("Pat's phone/1.0")),
        "{agents:?}"
    );
    assert_eq!(export["locked"], false);
    let profile_from = export.get("profile_from");
    assert_eq!(profile_from, Some(&Value::Null), "a password registration");
    assert_eq!(export["pending_deletions"], serde_json::json!([]));
    assert!(export["exported_at"].is_string());

    // No secret, whatever the user holds: provider tokens, session tokens, the password
    // and its hash.
    let mut secrets: Vec<String> = app.sim.issued_access_tokens();
    for login in [&registered, &again] {
        secrets.push(token(login));
        secrets.push(login["refresh_token"].as_str().unwrap().to_owned());
    }
    secrets.push(PASSWORD.to_owned());
    secrets.push("$argon2".to_owned());
    for secret in &secrets {
        assert!(!text.contains(secret.as_str()), "the export holds a secret");
    }

    // Support exports the same document.
    let id = export["user"]["id"].as_str().unwrap();
    let by_support = admin_json(&app, &format!("/admin/users/{id}/export")).await;
    assert_eq!(by_support["user"], export["user"]);
    assert_eq!(by_support["linked_accounts"], export["linked_accounts"]);
    let own = events
        .iter()
        .find(|event| event["user_agent"] == "Pat's phone/1.0");
    assert!(own.expect("Pat's login")["request_id"].is_string());

    // What support's own request carried is not the user's: the lock's event shows none.
    let locked = app
        .http
        .post(app.url(&format!("/admin/users/{id}/lock")))
        .header("user-agent", "support-console/2")
        .bearer_auth(crate::admin::ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(locked.status(), reqwest::StatusCode::NO_CONTENT);
    let after = admin_json(&app, &format!("/admin/users/{id}/export")).await;
    assert_eq!(after["locked"], true);
    let events = after["events"].as_array().unwrap();
    let lock = events.iter().find(|event| event["type"] == "user.locked");
    let lock = lock.expect("the lock's event");
    assert_eq!(lock["user_agent"], Value::Null);
    assert_eq!(lock["request_id"], Value::Null);
    let unknown = "/admin/users/0190f3c4-8a8e-7c4e-9f51-3c1d2a4b5e6f/export";
    let missing = app.get(unknown, Some(crate::admin::ADMIN_KEY)).await;
    assert_problem_in("unknown user", missing, 404, "NotFound").await;
    let anonymous = app.get("/users/me/export", None).await;
    assert_problem_in("no bearer", anonymous, 401, "Unauthorized").await;
    app.stop().await;
}
