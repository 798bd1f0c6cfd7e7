//! The demo's signal buttons over HTTP: `POST /demo/signals` acts for the signed-in person
//! only, about their linked account of the signal's provider, and the service receives the
//! signal the simulator signed exactly as from the provider.

use crate::demo::{sign_in_as, start_demo};
use serde_json::{Value, json};

async fn press(
    http: &reqwest::Client,
    base: &str,
    kind: &str,
    bearer: Option<&str>,
) -> (u16, Value) {
    let mut request = http
        .post(format!("{base}/demo/signals"))
        .json(&json!({"kind": kind}));
    if let Some(bearer) = bearer {
        request = request.bearer_auth(bearer);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_signal_button_acts_on_the_callers_linked_account_only() {
    let (demo, base, http, _dir) = start_demo().await;
    let (status, _) = press(&http, &base, "report_hijacking", None).await;
    assert_eq!(status, 401, "nobody signed in");
    let (status, _) = press(&http, &base, "report_hijacking", Some("not-a-token")).await;
    assert_eq!(status, 401);

    let login = sign_in_as(&http, &base, "google", "583231").await;
    let bearer = login["access_token"].as_str().unwrap();
    let (status, refused) = press(&http, &base, "revoke_consent", Some(bearer)).await;
    assert_eq!(status, 409, "no Apple account is linked: {refused}");
    assert_eq!(refused["code"], "NotLinked");

    let (status, sent) = press(&http, &base, "report_hijacking", Some(bearer)).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(sent["path"], "/auth/oauth/google/risc");
    assert_eq!(
        sent["status"], 202,
        "the service accepted Google's signed event"
    );
    // Google reported the account hijacked: the session it began cannot be renewed.
    let renewed = http
        .post(format!("{base}/auth/refresh"))
        .json(&json!({"refresh_token": login["refresh_token"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(renewed.status(), 401);
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn the_demos_own_routes_answer_errors_and_codes_as_the_api_does() {
    let (demo, base, http, _dir) = start_demo().await;
    let malformed = http
        .post(format!("{base}/demo/signals"))
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert!(malformed.status().is_client_error());
    assert_eq!(
        malformed.headers()["content-type"],
        "application/problem+json"
    );
    // Apple's form post brings a code and an id_token back to the page: never cached.
    let form_post = http
        .post(format!("{base}/demo/callback/apple"))
        .form(&[("code", "c"), ("state", "s")])
        .send()
        .await
        .unwrap();
    assert_eq!(form_post.status(), 200);
    assert_eq!(form_post.headers()["cache-control"], "no-store");
    demo.stop().await.unwrap();
}
