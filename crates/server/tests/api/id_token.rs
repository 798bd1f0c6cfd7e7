//! Native sign-in (docs/api.md): an app posts the id_token the simulated provider signed for
//! it, as Sign in with Apple, Google Sign-In or MSAL hand one over on the device.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::settings::Settings;
use social_login_domain::ProviderKey;
use social_login_simulator::{IdTokenFault, Provider, SimUser};

const RAW_NONCE: &str = "0f9c2b7e-native-app-nonce";
const IOS_CLIENT: &str = "com.example.ios";

/// What the app hands the provider SDK: the hex SHA-256 of its raw nonce.
fn hashed(raw: &str) -> String {
    hex::encode(Sha256::digest(raw.as_bytes()))
}

/// The body of a native sign-in with `id_token` and [`RAW_NONCE`].
fn with_raw_nonce(id_token: &str) -> Value {
    json!({"id_token": id_token, "nonce": RAW_NONCE})
}

fn ios_client_for_google_and_apple(settings: &mut Settings) {
    for key in [ProviderKey::GOOGLE, ProviderKey::APPLE] {
        let provider = settings.oauth_providers.get_mut(key).expect("enabled");
        provider.client_ids = vec![IOS_CLIENT.into()];
    }
}

impl TestApp {
    /// A token for `audience` about `user`, carrying the hash of [`RAW_NONCE`].
    fn native_token(&self, provider: Provider, user: &SimUser) -> String {
        self.sim
            .mint_id_token(provider, user, CLIENT_ID, Some(&hashed(RAW_NONCE)))
    }

    /// A native sign-in answered 200: the login result.
    async fn native_login(&self, provider: &str, body: &Value) -> Value {
        ok_json(self.native_sign_in(provider, body).await).await
    }

    /// A native sign-in as `user` with a token of its own, answered 200: the login result.
    async fn native_login_as(&self, provider: Provider, user: &SimUser) -> Value {
        let key = format!("{provider:?}").to_lowercase();
        self.native_login(&key, &self.native_body(provider, user))
            .await
    }

    /// POST an id_token to connect, as the holder of `bearer` (if any).
    async fn native_connect(&self, body: &Value, bearer: Option<&str>) -> reqwest::Response {
        self.post("/auth/oauth/google/id-token/connect", body, bearer)
            .await
    }

    async fn event_types(&self, bearer: &str) -> Vec<(String, Value)> {
        let events: Value = self.events(bearer).await;
        events
            .as_array()
            .unwrap()
            .iter()
            .map(|event| {
                (
                    event["type"].as_str().unwrap().to_owned(),
                    event["provider"].clone(),
                )
            })
            .collect()
    }
}

#[tokio::test]
async fn a_google_id_token_registers_a_user_then_logs_the_same_user_in() {
    let app = spawn_app().await;
    let id_token = app.native_token(Provider::Google, &ada());
    let body = with_raw_nonce(&id_token);

    let first = app.native_login("google", &body).await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["token_type"], "bearer");
    assert_eq!(first["user"]["email"], "ada@example.com");
    assert_eq!(first["user"]["email_verified"], true);
    assert_eq!(first["user"]["full_name"], "Ada Lovelace");

    // Another id_token of the same person (the next sign-in in the app) is the same user.
    let again = app.native_login_as(Provider::Google, &ada()).await;
    assert_returning(&again, &first);

    let mut events = app.event_types(&token(&again)).await;
    events.sort_by(|a, b| a.0.cmp(&b.0));
    let google = json!("google");
    assert_eq!(
        events,
        [
            ("user.login".to_owned(), google.clone()),
            ("user.login".to_owned(), google.clone()),
            ("user.registered".to_owned(), google),
        ]
    );
    // The code flow then finds the same link.
    let listed: Value = app.accounts(&token(&again)).await;
    assert_eq!(listed[0]["provider"], "google");
    // The id_token is neither stored nor logged.
    assert_never_kept(&app, &id_token).await;
    app.stop().await;
}

#[tokio::test]
async fn microsoft_and_apple_id_tokens_sign_in_new_then_returning_users() {
    let app = spawn_app().await;
    let body = app.native_body(Provider::Microsoft, &ada());
    let first = app.native_login("microsoft", &body).await;
    assert_eq!(first["is_new_user"], true, "{first}");
    let again = app.native_login_as(Provider::Microsoft, &ada()).await;
    assert_returning(&again, &first);

    // Apple: the name only arrives in `post_body`, as Apple gives it to the app once.
    let apple = app.native_token(Provider::Apple, &grace());
    let post_body = json!({"user": {"name": {"firstName": "Grace", "lastName": "Hopper"}}});
    let first = app
        .native_login(
            "apple",
            &json!({"id_token": apple, "nonce": RAW_NONCE, "post_body": post_body}),
        )
        .await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["user"]["full_name"], "Grace Hopper");
    assert_eq!(first["user"]["email"], "grace@example.com");
    let again = app.native_login_as(Provider::Apple, &grace()).await;
    assert_returning_with_name(&again, &first);
    app.stop().await;
}

#[tokio::test]
async fn an_audience_from_client_ids_is_accepted_and_any_other_is_not() {
    let app = spawn_app_tuned(ios_client_for_google_and_apple).await;
    // client_ids widen native sign-in only: Microsoft has none configured here.
    let cases = [
        (Provider::Google, ada(), true),
        (Provider::Apple, grace(), true),
        (Provider::Microsoft, grace(), false),
    ];
    // A user each: one email, one account (no auto-linking here).
    for (provider, user, takes_client_ids) in cases {
        let key = format!("{provider:?}").to_lowercase();
        let ios = app.native_body_for(provider, &user, IOS_CLIENT);
        let response = app.native_sign_in(&key, &ios).await;
        if takes_client_ids {
            assert_eq!(response.status(), StatusCode::OK, "{key}");
        } else {
            assert_problem(response, 502, "OAuthUserInfoFailed").await;
        }
        let other = app.native_body_for(provider, &user, "com.example.other");
        let response = app.native_sign_in(&key, &other).await;
        assert_problem(response, 502, "OAuthUserInfoFailed").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_token_with_the_wrong_nonce_or_expired_or_tampered_is_502() {
    let app = spawn_app().await;
    let token = app.native_token(Provider::Google, &ada());
    refused(
        &app,
        json!({"id_token": token, "nonce": "another-raw-nonce"}),
    )
    .await;
    // The raw nonce itself in the token is not its hash.
    let raw = app
        .sim
        .mint_id_token(Provider::Google, &ada(), CLIENT_ID, Some(RAW_NONCE));
    refused(&app, with_raw_nonce(&raw)).await;
    let without = app
        .sim
        .mint_id_token(Provider::Google, &ada(), CLIENT_ID, None);
    refused(&app, with_raw_nonce(&without)).await;

    let (head, signature) = token.rsplit_once('.').unwrap();
    let flipped = if signature.starts_with('A') { "B" } else { "A" };
    refused(
        &app,
        with_raw_nonce(&format!("{head}.{flipped}{}", &signature[1..])),
    )
    .await;
    let (header, rest) = token.split_once('.').unwrap();
    let (_, signature) = rest.split_once('.').unwrap();
    let forged_claims = base64_url(
        &json!({"iss": "https://accounts.google.com", "sub": "583231",
        "aud": CLIENT_ID, "exp": 4_000_000_000_i64, "iat": 1_700_000_000}),
    );
    refused(
        &app,
        with_raw_nonce(&format!("{header}.{forged_claims}.{signature}")),
    )
    .await;
    refused(&app, with_raw_nonce("not.a.jwt")).await;

    for fault in [
        IdTokenFault::Expired,
        IdTokenFault::WrongSignature,
        IdTokenFault::WrongIssuer,
        IdTokenFault::AlgNone,
    ] {
        app.sim.set_id_token_fault(Provider::Google, fault);
        let broken = app.native_token(Provider::Google, &ada());
        refused(&app, with_raw_nonce(&broken)).await;
        app.sim.clear_faults();
    }
    // Nothing was registered by any of them.
    let first = app.native_login_as(Provider::Google, &ada()).await;
    assert_eq!(first["is_new_user"], true);
    app.stop().await;
}

#[tokio::test]
async fn providers_without_id_tokens_are_400_and_unknown_ones_404() {
    let app = spawn_app().await;
    let id_token = app.native_token(Provider::Google, &ada());
    let huge = "a".repeat(16 * 1024 + 1);
    let cases = [
        (
            "github",
            with_raw_nonce(&id_token),
            400,
            "IdTokenNotSupported",
        ),
        (
            "linkedin",
            with_raw_nonce(&id_token),
            400,
            "IdTokenNotSupported",
        ),
        (
            "discord",
            with_raw_nonce(&id_token),
            400,
            "IdTokenNotSupported",
        ),
        (
            "myspace",
            json!({"id_token": id_token}),
            404,
            "OAuthProviderNotConfigured",
        ),
        ("google", with_raw_nonce(&huge), 422, "ValidationError"),
    ];
    for (provider, body, status, code) in cases {
        let response = app.native_sign_in(provider, &body).await;
        assert_problem_in(provider, response, status, code).await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_signed_in_user_connects_an_account_by_id_token_once() {
    let app = spawn_app().await;
    let pat = token(&app.register("pat@example.com").await);
    let body = app.native_body(Provider::Google, &grace());

    let connected = app.native_connect(&body, Some(&pat)).await;
    assert_eq!(connected.status(), StatusCode::CREATED);
    let link: Value = connected.json().await.unwrap();
    assert_eq!(link["provider"], "google");
    assert_eq!(link["email"], "grace@example.com");
    let mut keys: Vec<_> = link.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["created_at", "email", "id", "provider", "scopes"]);
    let events = app.event_types(&pat).await;
    assert_eq!(events[0], ("account.linked".to_owned(), json!("google")));

    // That Google account now signs Pat in (with the next token the app gets).
    let login = app.native_login_as(Provider::Google, &grace()).await;
    assert_eq!(login["is_new_user"], false);
    assert_eq!(login["user"]["email"], "pat@example.com");

    // Pat's own link again: its tokens and email renewed, the same link, 200.
    let again = app
        .native_connect(&app.native_body(Provider::Google, &grace()), Some(&pat))
        .await;
    assert_eq!(again.status(), StatusCode::OK);
    let renewed: Value = again.json().await.unwrap();
    assert_eq!(renewed["id"], link["id"]);
    let events = app.event_types(&pat).await;
    assert_eq!(
        events[0],
        ("provider.token_refreshed".to_owned(), json!("google"))
    );
    // Anyone else's: 409.
    let sam = token(&app.register("sam@example.com").await);
    let taken = app
        .native_connect(&app.native_body(Provider::Google, &grace()), Some(&sam))
        .await;
    assert_problem(taken, 409, "ProviderAlreadyLinked").await;
    let anonymous = app.native_connect(&body, None).await;
    assert_problem(anonymous, 401, "Unauthorized").await;
    app.stop().await;
}

async fn refused(app: &TestApp, body: Value) {
    let response = app.native_sign_in("google", &body).await;
    assert_problem(response, 502, "OAuthUserInfoFailed").await;
}

fn base64_url(value: &Value) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string())
}

#[tokio::test]
async fn a_locked_users_id_token_is_403_and_writes_nothing_until_unlocked() {
    use crate::admin::{admin_json, admin_ok, with_admin};
    let app = spawn_app_with(with_admin()).await;
    let first = app.native_login_as(Provider::Google, &ada()).await;
    let id = user_id(&first);
    let user = format!("/admin/users/{id}");
    admin_ok(&app, "POST", &format!("{user}/lock")).await;

    assert_problem(
        app.native_sign_in("google", &app.native_body(Provider::Google, &ada()))
            .await,
        403,
        "UserLocked",
    )
    .await;
    let locked = admin_json(&app, &user).await;
    assert_eq!(locked["locked"], true);
    assert_eq!(locked["active_sessions"], 0, "no session was started");
    assert_eq!(locked["linked_accounts"].as_array().unwrap().len(), 1);

    admin_ok(&app, "POST", &format!("{user}/unlock")).await;
    let again = app.native_login_as(Provider::Google, &ada()).await;
    assert_eq!(again["user"]["id"], first["user"]["id"]);
    assert_eq!(again["is_new_user"], false);
    assert_eq!(admin_json(&app, &user).await["active_sessions"], 1);
    // Newest first: the refused sign-in recorded no login between the lock and the unlock.
    let events: Vec<String> = app
        .event_types(&token(&again))
        .await
        .into_iter()
        .map(|(kind, _)| kind)
        .collect();
    assert_eq!(
        events,
        [
            "user.login",
            "user.unlocked",
            "user.locked",
            "user.login",
            "user.registered"
        ]
    );
    app.stop().await;
}
