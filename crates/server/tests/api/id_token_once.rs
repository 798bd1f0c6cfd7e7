//! Native id_tokens are single use and need the nonce (docs/api.md): the same token is
//! refused the second time, a request without a nonce is invalid unless the provider makes
//! it optional, and a token that carries a nonce needs the raw value of its hash whatever
//! the setting, which keeps a web code flow's id_token out of native sign-in.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::settings::{IdTokenNonce, Settings};
use social_login_simulator::Provider;

const RAW_NONCE: &str = "c4d1e2b8-one-sign-in-of-the-app";

fn hashed(raw: &str) -> String {
    hex::encode(Sha256::digest(raw.as_bytes()))
}

fn google_nonce_optional(settings: &mut Settings) {
    let google = settings
        .oauth_providers
        .get_mut(social_login_domain::ProviderKey::GOOGLE)
        .expect("enabled");
    google.id_token_nonce = Some(IdTokenNonce::Optional);
}

#[tokio::test]
async fn the_same_google_id_token_posted_three_times_logs_in_once() {
    let app = spawn_app().await;
    let id_token = app.id_token(Provider::Google, &ada(), Some(&hashed(RAW_NONCE)));
    let body = json!({"id_token": id_token, "nonce": RAW_NONCE});
    let first = app.native_sign_in("google", &body).await;
    assert_eq!(first.status(), StatusCode::OK);
    let bearer = token(&first.json().await.unwrap());
    for _ in 0..2 {
        let replay = app.native_sign_in("google", &body).await;
        assert_problem(replay, 502, "OAuthUserInfoFailed").await;
    }
    // The signature's last character carries spare bits: written another way it is refused,
    // as not canonical base64 or as the same token (the use-case tests hold the latter).
    let (signed, signature) = id_token.rsplit_once('.').unwrap();
    let last = signature.chars().last().unwrap();
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let index = alphabet.find(last).unwrap();
    let sibling = alphabet.as_bytes()[index ^ 1] as char;
    let reencoded = format!("{signed}.{}{sibling}", &signature[..signature.len() - 1]);
    let replay = app
        .native_sign_in(
            "google",
            &json!({"id_token": reencoded, "nonce": RAW_NONCE}),
        )
        .await;
    assert_problem(replay, 502, "OAuthUserInfoFailed").await;
    // Nor does it link an account: connect with it is refused as well.
    let pat = token(&app.register("pat@example.com").await);
    let connect = app
        .post("/auth/oauth/google/id-token/connect", &body, Some(&pat))
        .await;
    assert_problem(connect, 502, "OAuthUserInfoFailed").await;
    // One registration and its login happened; the replays started no session.
    let events: Value = app.events(&bearer).await;
    let types = strings(&events, "type");
    assert_eq!(types, ["user.login", "user.registered"], "{events}");
    // The token is neither stored nor logged, not even as the key of its use.
    assert_never_kept(&app, &id_token).await;
    app.stop().await;
}

#[tokio::test]
async fn a_request_without_a_nonce_is_a_validation_error_and_signs_nobody_in() {
    let app = spawn_app().await;
    let carrying = app.id_token(Provider::Google, &ada(), Some(&hashed(RAW_NONCE)));
    let bare = app.id_token(Provider::Google, &grace(), None);
    for id_token in [&carrying, &bare] {
        let response = app
            .native_sign_in("google", &json!({"id_token": id_token}))
            .await;
        let problem = assert_problem(response, 422, "ValidationError").await;
        assert!(
            problem["detail"].as_str().unwrap().contains("nonce"),
            "{problem}"
        );
    }
    // Refused before verification: the token is not used up, and signs in with its nonce.
    let later = app
        .native_sign_in("google", &json!({"id_token": carrying, "nonce": RAW_NONCE}))
        .await;
    assert_eq!(later.status(), StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn where_the_nonce_is_optional_a_token_that_carries_one_still_needs_it() {
    let app = spawn_app_tuned(google_nonce_optional).await;
    let carrying = app.id_token(Provider::Google, &ada(), Some(&hashed(RAW_NONCE)));
    let refused = app
        .native_sign_in("google", &json!({"id_token": carrying}))
        .await;
    assert_problem(refused, 502, "OAuthUserInfoFailed").await;
    let with_it = app
        .native_sign_in("google", &json!({"id_token": carrying, "nonce": RAW_NONCE}))
        .await;
    assert_eq!(with_it.status(), StatusCode::OK);

    // A token without a nonce claim signs in without one, once.
    let bare = json!({"id_token": app.id_token(Provider::Google, &grace(), None)});
    assert_eq!(
        app.native_sign_in("google", &bare).await.status(),
        StatusCode::OK
    );
    assert_problem(
        app.native_sign_in("google", &bare).await,
        502,
        "OAuthUserInfoFailed",
    )
    .await;

    // The other providers still require it.
    let apple = json!({"id_token": app.id_token(Provider::Apple, &grace(), None)});
    let response = app.native_sign_in("apple", &apple).await;
    assert_problem(response, 422, "ValidationError").await;
    app.stop().await;
}

#[tokio::test]
async fn an_id_token_of_a_web_code_flow_does_not_sign_in_natively() {
    type Tune = fn(&mut Settings);
    let cases: [(Tune, u16, &str); 2] = [
        (|_| {}, 422, "ValidationError"),
        (google_nonce_optional, 502, "OAuthUserInfoFailed"),
    ];
    for (tune, status, code) in cases {
        let app = spawn_app_tuned(tune).await;
        // The nonce the web flow sent Google, raw, as its id_token carries it.
        let url = app.authorize("google", None).await;
        let nonce = url::Url::parse(&url)
            .unwrap()
            .query_pairs()
            .find(|(key, _)| key == "nonce")
            .map(|(_, value)| value.into_owned())
            .expect("the authorization URL carries a nonce");
        let web_token = app.id_token(Provider::Google, &ada(), Some(&nonce));
        let without = app
            .native_sign_in("google", &json!({"id_token": web_token}))
            .await;
        assert_problem(without, status, code).await;
        let with_raw = app
            .native_sign_in("google", &json!({"id_token": web_token, "nonce": nonce}))
            .await;
        assert_problem(with_raw, 502, "OAuthUserInfoFailed").await;
        app.stop().await;
    }
}

#[tokio::test]
async fn a_token_used_before_a_restart_stays_used_and_one_issued_before_it_works_only_where_used_ones_survive()
 {
    let mut app = spawn_app().await;
    let used = app.native_body_for(Provider::Google, &ada(), CLIENT_ID);
    let first = app.native_sign_in("google", &used).await;
    assert_eq!(first.status(), StatusCode::OK);
    let unused = app.native_body_for(Provider::Google, &ada(), CLIENT_ID);
    // `iat` counts whole seconds: the restart comes in a later one.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    app.restart_with(|_| {}).await;

    let replay = app.native_sign_in("google", &used).await;
    assert_problem(replay, 502, "OAuthUserInfoFailed").await;
    let older = app.native_sign_in("google", &unused).await;
    if crate::STORAGE.redis {
        // Redis kept the used ones: a token from before is refused only if it was used.
        assert_eq!(older.status(), StatusCode::OK);
    } else {
        // The memory store forgot them: no token issued before the restart is good any more.
        assert_problem(older, 502, "OAuthUserInfoFailed").await;
    }
    let after = app.native_body_for(Provider::Google, &ada(), CLIENT_ID);
    let fresh = app.native_sign_in("google", &after).await;
    assert_eq!(fresh.status(), StatusCode::OK);
    app.stop().await;
}
