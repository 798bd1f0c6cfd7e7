//! The simulated X: what its dialect and hooks add to what every provider does (see
//! `dialects`): PKCE required, `state` at most 500 characters, 30-second codes of its own,
//! public clients, and `/2/users/me` with its `user.fields`.

use crate::support::fixtures::{TWITTER, config, start, start_with};
use crate::support::{Params, refusal};
use social_login_simulator::{Provider, RegisteredClient};
use std::collections::HashMap;
use std::time::Duration;

#[tokio::test]
async fn a_request_without_pkce_is_sent_back_as_an_error() {
    let client = TWITTER.started().await;
    let no_pkce = client
        .valid("users.read")
        .unset("code_challenge")
        .unset("code_challenge_method");
    let missing = "Missing required parameter [code_challenge].";
    client.assert_invalid_request(&no_pkce, missing).await;
}

#[tokio::test]
async fn a_missing_or_overlong_state_is_an_error_page() {
    let client = TWITTER.started().await;
    let long = "s".repeat(501);
    for params in [
        client.valid("users.read").set("state", &long),
        client.valid("users.read").unset("state"),
    ] {
        let response = client.authorize(&params).await;
        assert_eq!(response.status(), 400);
        assert!(response.headers().get("location").is_none());
    }
    let longest = "s".repeat(500);
    assert_eq!(
        client
            .authorize(&client.valid("users.read").set("state", &longest))
            .await
            .status(),
        302
    );
}

#[tokio::test]
async fn codes_live_as_long_as_xs_own_setting_says_whatever_the_common_one() {
    for (common, own, redeemable) in [
        (Duration::ZERO, Duration::from_secs(30), true),
        (Duration::from_secs(600), Duration::ZERO, false),
    ] {
        let sim = start_with(
            config(&[TWITTER])
                .with_code_ttl(common)
                .with_twitter_code_ttl(own),
        )
        .await;
        let client = TWITTER.client(&sim);
        let code = client.code("users.read").await;
        let (status, _) = client.redeem(&code).await;
        assert_eq!(status == 200, redeemable, "common {common:?}, own {own:?}");
    }
}

#[tokio::test]
async fn a_public_client_names_itself_in_the_form_without_a_secret() {
    let public = RegisteredClient::new(Provider::Twitter, "x-public", "", TWITTER.callback);
    let sim = start_with(config(&[]).with_client(public)).await;
    let client = TWITTER.client(&sim);
    let params = client.valid("users.read").set("client_id", "x-public");
    let code = client.answer(&params).await.get("code").unwrap().to_owned();
    let form = client.token_form(&code).and("client_id", "x-public");
    let (status, body) = client.post(&client.urls().token, &form, None).await;
    assert_eq!(status, 200, "{body}");
    let revoked = Params::of(&[
        ("token", body["access_token"].as_str().unwrap()),
        ("client_id", "x-public"),
    ]);
    assert_eq!(
        client
            .post(&client.urls().revocation.unwrap(), &revoked, None)
            .await
            .0,
        200
    );
}

#[tokio::test]
async fn confirmed_email_comes_only_with_the_users_email_scope() {
    let client = TWITTER.started().await;
    let me = async |scope: &str, fields: &str| {
        let token = client.access_token(scope).await;
        let url = url::Url::parse_with_params(
            &client.urls().userinfo.unwrap(),
            &[("user.fields", fields)],
        );
        client.get(url.unwrap().as_str(), Some(&token)).await
    };
    let (status, body) = me("tweet.read users.read users.email", "confirmed_email").await;
    assert_eq!(
        (status, body["data"]["confirmed_email"].as_str()),
        (200, Some("ada@example.com"))
    );
    assert_eq!(body["data"]["username"], "ada");
    let (_, body) = me("tweet.read users.read", "confirmed_email").await;
    let data: HashMap<String, serde_json::Value> =
        serde_json::from_value(body["data"].clone()).unwrap();
    assert!(!data.contains_key("confirmed_email"));
    let (status, body) = me("tweet.read users.read", "pinned_tweet_id").await;
    assert_eq!(
        (status, body["title"].as_str()),
        (400, Some("Invalid Request"))
    );
    let (status, body) = me("users.read", "").await;
    assert_eq!((status, body["status"].as_u64()), (403, Some(403)));
}

#[tokio::test]
async fn revocation_takes_the_client_as_the_token_endpoint_does() {
    let sim = start(&[TWITTER]).await;
    let client = TWITTER.client(&sim);
    let token = client.access_token(TWITTER.scope).await;
    let form = Params::of(&[
        ("token", &token),
        ("client_id", TWITTER.id),
        ("client_secret", TWITTER.secret),
    ]);
    let answer = client
        .post(&client.urls().revocation.unwrap(), &form, None)
        .await;
    assert_eq!(refusal(&answer), (401, "unauthorized_client"));
    assert!(sim.revocations().is_empty());
}
