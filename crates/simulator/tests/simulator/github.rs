//! The simulated GitHub: what its dialect and hooks add to what every provider does (see
//! `dialects`): its redirect rule and account hints, its answer formats, its REST API
//! (the User-Agent gate, `/user`, `/user/emails`) and its `DELETE` revocations.

use crate::support::fixtures::{GITHUB, start};
use crate::support::{OTHER_VERIFIER, Params, http, status_and_json};
use serde_json::json;
use social_login_simulator::{Provider, RegisteredClient, SimEmail, SimUser, TokenKind};

/// A request as GitHub's own guide shows one: no PKCE, no `response_type`.
fn plain_request() -> Params {
    Params::of(&[
        ("client_id", GITHUB.id),
        ("redirect_uri", GITHUB.callback),
        ("scope", "read:user"),
        ("state", "xyz"),
    ])
}

/// A form-encoded answer's fields.
fn form_fields(text: &str) -> Params {
    Params(
        url::form_urlencoded::parse(text.as_bytes())
            .into_owned()
            .collect(),
    )
}

#[tokio::test]
async fn a_code_of_twenty_characters_and_the_state_go_back_to_the_callback_or_below_it() {
    let client = GITHUB.started().await;
    let answer = client.answer(&plain_request()).await;
    assert_eq!(answer.get("state"), Some("xyz"));
    assert_eq!(answer.get("code").unwrap().len(), 20);
    let deeper = format!("{}/deeper", GITHUB.callback);
    let response = client
        .authorize(&plain_request().set("redirect_uri", &deeper))
        .await;
    assert!(
        response.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with(&deeper)
    );
}

#[tokio::test]
async fn its_login_parameter_or_login_hint_names_the_user_and_an_unknown_one_is_an_error_page() {
    let sim = start(&[GITHUB]).await;
    sim.add_user(SimUser::new("7", "grace"));
    let client = GITHUB.client(&sim);
    for hint in ["login", "login_hint"] {
        let answer = client.answer(&plain_request().and(hint, "grace")).await;
        let (_, tokens) = client
            .token(&client.token_form(answer.get("code").unwrap()))
            .await;
        let (_, user) = client.userinfo(tokens["access_token"].as_str()).await;
        assert_eq!(
            (user["login"].as_str(), user["id"].as_u64()),
            (Some("grace"), Some(7)),
            "{hint}"
        );
    }
    let response = client
        .authorize(&plain_request().and("sim_user", "nobody"))
        .await;
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn without_accept_json_the_answer_is_a_form_errors_included() {
    let client = GITHUB.started().await;
    let form = |code: &str| {
        http()
            .post(client.urls().token)
            .form(&client.token_form(code).0)
    };
    let code = client.code(GITHUB.scope).await;
    let response = form(&code).send().await.unwrap();
    assert_eq!(
        response.headers()["content-type"],
        "application/x-www-form-urlencoded"
    );
    let answer = form_fields(&response.text().await.unwrap());
    assert!(answer.get("access_token").unwrap().starts_with("gho_"));
    assert_eq!(answer.get("scope"), Some("read:user,user:email"));
    let again = form(&code).send().await.unwrap();
    assert_eq!(again.status(), 200);
    let error = form_fields(&again.text().await.unwrap());
    assert_eq!(error.get("error"), Some("bad_verification_code"));
    assert!(
        error
            .get("error_uri")
            .is_some_and(|uri| uri.starts_with("https://docs.github.com/"))
    );
}

#[tokio::test]
async fn a_failed_verifier_burns_the_code_but_failed_client_credentials_do_not() {
    let client = GITHUB.started().await;
    let code = client.code(GITHUB.scope).await;
    let (_, body) = client
        .exchange(&code, |f| f.set("code_verifier", OTHER_VERIFIER))
        .await;
    assert_eq!(body["error"], "bad_verification_code");
    assert_eq!(
        client.redeem(&code).await.1["error"],
        "bad_verification_code"
    );
    let code = client.code(GITHUB.scope).await;
    let (_, body) = client
        .exchange(&code, |f| f.set("client_secret", "guess"))
        .await;
    assert_eq!(body["error"], "incorrect_client_credentials");
    assert!(client.redeem(&code).await.1["access_token"].is_string());
}

#[tokio::test]
async fn a_code_issued_to_one_client_is_useless_to_another() {
    let config = crate::support::fixtures::config(&[GITHUB]).with_client(RegisteredClient::new(
        Provider::Github,
        "other-client",
        "other-secret",
        GITHUB.callback,
    ));
    let sim = crate::support::fixtures::start_with(config).await;
    let client = GITHUB.client(&sim);
    let code = client.code(GITHUB.scope).await;
    let form = client
        .token_form(&code)
        .set("client_id", "other-client")
        .set("client_secret", "other-secret");
    assert_eq!(
        client.token(&form).await.1["error"],
        "bad_verification_code"
    );
}

#[tokio::test]
async fn the_user_is_served_for_a_bearer_or_legacy_token_and_never_without_a_user_agent() {
    let client = GITHUB.started().await;
    let token = client.access_token(GITHUB.scope).await;
    let (_, user) = client.userinfo(Some(&token)).await;
    assert_eq!(
        (user["login"].as_str(), user["name"].as_str()),
        (Some("ada"), Some("Ada Lovelace"))
    );
    assert!(user["email"].is_null(), "the primary email is private");
    let user_url = client.urls().userinfo.unwrap();
    let legacy = http()
        .get(&user_url)
        .header("authorization", format!("token {token}"));
    assert_eq!(status_and_json(legacy).await.0, 200);
    let bare = reqwest::Client::new().get(&user_url).bearer_auth(&token);
    assert_eq!(status_and_json(bare).await.0, 403);
}

#[tokio::test]
async fn emails_are_listed_with_their_flags_but_only_with_an_email_scope() {
    let client = GITHUB.started().await;
    let emails_url = client.urls().emails.unwrap();
    let token = client.access_token("read:user user:email").await;
    let (status, emails) = client.get(&emails_url, Some(&token)).await;
    assert_eq!(status, 200);
    let emails: Vec<SimEmail> = serde_json::from_value(emails).unwrap();
    assert_eq!(emails[0].email, "ada@example.com");
    assert!(emails[0].primary && emails[0].verified);
    assert!(
        emails
            .iter()
            .any(|e| e.email.ends_with("@users.noreply.github.com"))
    );
    let token = client.access_token("read:user").await;
    assert_eq!(client.get(&emails_url, Some(&token)).await.0, 404);
    assert_eq!(client.get(&emails_url, None).await.0, 401);
}

#[tokio::test]
async fn a_token_or_its_whole_grant_is_revoked_with_basic_credentials_only() {
    let sim = start(&[GITHUB]).await;
    let client = GITHUB.client(&sim);
    let grant_url = client
        .urls()
        .revocation
        .unwrap()
        .replace("{client_id}", GITHUB.id);
    for url in [grant_url.replace("/grant", "/token"), grant_url] {
        let token = client.access_token("read:user").await;
        let body = json!({ "access_token": token });
        let anonymous = http().delete(&url).json(&body);
        assert_eq!(status_and_json(anonymous).await.0, 404);
        let wrong = http()
            .delete(&url)
            .basic_auth(GITHUB.id, Some("guess"))
            .json(&body);
        assert_eq!(status_and_json(wrong).await.0, 404);
        let right = http()
            .delete(&url)
            .basic_auth(GITHUB.id, Some(GITHUB.secret))
            .json(&body);
        assert_eq!(status_and_json(right).await.0, 204);
        let revoked = sim.revocations().pop().unwrap();
        assert_eq!(
            (revoked.provider, revoked.kind),
            (Provider::Github, Some(TokenKind::Access))
        );
        assert_eq!(client.userinfo(Some(&token)).await.0, 401);
        let again = http()
            .delete(&url)
            .basic_auth(GITHUB.id, Some(GITHUB.secret))
            .json(&body);
        assert_eq!(status_and_json(again).await.0, 404, "an unknown token");
    }
}
