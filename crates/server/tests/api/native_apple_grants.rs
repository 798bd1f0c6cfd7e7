//! Sign in with Apple on a device keeps a revocable grant (docs/api.md#native-sign-in): the
//! app posts the authorization code Apple gave it with the id_token; the service exchanges
//! it as the app's bundle id (the id_token's `aud`), stores the tokens encrypted, and
//! disconnect and account deletion revoke the grant at the simulated Apple.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login::settings::Settings;
use social_login_domain::ProviderKey;
use social_login_simulator::{Provider, Revocation, SimUser, TokenKind};

/// The app's bundle id is one of apple's `client_ids`.
fn bundle_id_configured(settings: &mut Settings) {
    let apple = settings
        .oauth_providers
        .get_mut(ProviderKey::APPLE)
        .expect("enabled");
    apple.client_ids = vec![APPLE_APP_BUNDLE_ID.into()];
}

async fn spawn() -> TestApp {
    spawn_app_tuned(bundle_id_configured).await
}

/// What Sign in with Apple hands the app on the device: an id_token for the bundle id with
/// the hash of a raw nonce of its own, and an authorization code for the same client.
fn apple_credential(app: &TestApp, user: &SimUser, code: Option<&str>) -> Value {
    let mut body = app.native_body_for(Provider::Apple, user, APPLE_APP_BUNDLE_ID);
    if let Some(code) = code {
        body["authorization_code"] = json!(code);
    }
    body
}

/// A credential whose code Apple really issued to the app, about `user`.
fn with_code(app: &TestApp, user: &SimUser) -> Value {
    let code = app.sim.mint_apple_native_code(user, APPLE_APP_BUNDLE_ID);
    apple_credential(app, user, Some(&code))
}

/// Checks that deleting the account of `login` revokes its Apple grant as the app.
async fn assert_deletion_revokes_as_the_app(app: &TestApp, login: &Value) {
    app.delete_account(&token(login)).await;
    assert_revoked_as_the_app(app);
}

/// The one revocation Apple received: the live refresh token, as the app's client.
fn assert_revoked_as_the_app(app: &TestApp) -> Revocation {
    let revocations = app.revocations_at(Provider::Apple);
    assert_eq!(revocations.len(), 1, "{revocations:?}");
    let revocation = revocations.into_iter().next().unwrap();
    assert_eq!(revocation.client_id, APPLE_APP_BUNDLE_ID);
    assert_eq!(revocation.kind, Some(TokenKind::Refresh), "a live grant");
    revocation
}

/// A native sign-in with Apple.
async fn sign_in(app: &TestApp, body: &Value) -> reqwest::Response {
    app.native_sign_in("apple", body).await
}

#[tokio::test]
async fn a_native_sign_in_with_its_code_stores_the_grant_encrypted_and_disconnect_revokes_it() {
    let app = spawn().await;
    let pat = app.register("pat@example.com").await;
    let linked = app
        .post(
            "/auth/oauth/apple/id-token/connect",
            &with_code(&app, &ada()),
            Some(&token(&pat)),
        )
        .await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let stored = app.stored_bytes().await;
    let issued = app.sim.issued_access_tokens();
    assert!(!issued.is_empty(), "the code was exchanged");
    for plaintext in &issued {
        let found = stored
            .windows(plaintext.len())
            .any(|w| w == plaintext.as_bytes());
        assert!(!found, "a provider token is stored in plaintext");
    }

    let unlinked = app
        .delete("/auth/oauth/apple/disconnect", Some(&token(&pat)))
        .await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let revoked = assert_revoked_as_the_app(&app);
    let found = stored
        .windows(revoked.token.len())
        .any(|w| w == revoked.token.as_bytes());
    assert!(!found, "the refresh token was stored encrypted");
    app.stop().await;
}

#[tokio::test]
async fn deleting_an_account_made_by_a_native_sign_in_with_its_code_revokes_the_grant() {
    let app = spawn().await;
    let login = ok_json(sign_in(&app, &with_code(&app, &grace())).await).await;
    assert_eq!(login["is_new_user"], true);

    assert_deletion_revokes_as_the_app(&app, &login).await;
    app.stop().await;
}

#[tokio::test]
async fn a_code_apple_refuses_is_502_and_signs_nobody_in() {
    let app = spawn().await;
    let refused = sign_in(&app, &apple_credential(&app, &grace(), Some("not-a-code"))).await;
    assert_problem(refused, 502, "OAuthCodeExchangeFailed").await;

    // Nothing was written: the same person's next sign-in registers them.
    let later = ok_json(sign_in(&app, &apple_credential(&app, &grace(), None)).await).await;
    assert_eq!(
        later["is_new_user"], true,
        "the refused sign-in made no user"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_code_for_another_client_or_another_person_is_refused() {
    let app = spawn().await;
    // A code Apple issued to an app the service is not configured for.
    let other_app = "com.example.other";
    let foreign = app.sim.mint_apple_native_code(&grace(), other_app);
    let refused = sign_in(&app, &apple_credential(&app, &grace(), Some(&foreign))).await;
    assert_problem(refused, 502, "OAuthCodeExchangeFailed").await;
    assert!(app.sim.issued_access_tokens().is_empty(), "never exchanged");
    assert!(
        app.revocations_at(Provider::Apple).is_empty(),
        "so nothing to revoke"
    );
    // The app's own code, but about someone else than the id_token: Apple issues a grant
    // before the service can see whose it is, so the service revokes it again.
    let adas = app.sim.mint_apple_native_code(&ada(), APPLE_APP_BUNDLE_ID);
    let refused = sign_in(&app, &apple_credential(&app, &grace(), Some(&adas))).await;
    assert_problem(refused, 502, "OAuthCodeExchangeFailed").await;
    assert_eq!(
        app.sim.issued_access_tokens().len(),
        1,
        "the code was exchanged"
    );
    let revoked = assert_revoked_as_the_app(&app);
    assert!(
        !logs().contains(&revoked.token),
        "the revoked token is not logged"
    );

    let later = sign_in(&app, &apple_credential(&app, &grace(), None)).await;
    let later: Value = later.json().await.unwrap();
    assert_eq!(later["is_new_user"], true, "neither refusal made a user");
    assert_eq!(
        app.revocations_at(Provider::Apple).len(),
        1,
        "nothing else was revoked"
    );
    app.stop().await;
}

#[tokio::test]
async fn without_a_code_the_sign_in_works_and_keeps_the_grant_stored_before() {
    let app = spawn().await;
    let first = ok_json(sign_in(&app, &with_code(&app, &grace())).await).await;
    let again = ok_json(sign_in(&app, &apple_credential(&app, &grace(), None)).await).await;
    assert_returning(&again, &first);

    assert_deletion_revokes_as_the_app(&app, &again).await;
    app.stop().await;
}

#[tokio::test]
async fn an_authorization_code_for_a_provider_other_than_apple_is_422() {
    let app = spawn().await;
    let id_token = app.id_token(Provider::Google, &ada(), None);
    let body = json!({"id_token": id_token, "nonce": "n", "authorization_code": "c"});
    let response = app.native_sign_in("google", &body).await;
    assert_problem(response, 422, "ValidationError").await;
    app.stop().await;
}

#[tokio::test]
async fn a_sign_in_the_linking_rules_refuse_is_refused_before_the_code_reaches_apple() {
    let app = spawn_app_tuned(|settings| {
        bundle_id_configured(settings);
        let apple = settings
            .oauth_providers
            .get_mut(ProviderKey::APPLE)
            .unwrap();
        apple.linking = Some(social_login::settings::LinkingConfig::Never);
    })
    .await;
    // Grace's address is held by a password account and Apple may not offer a link: its
    // sign-in for it is a 409 with nothing to offer.
    app.register("grace@example.com").await;
    let refused = sign_in(&app, &with_code(&app, &grace())).await;
    let problem = assert_problem(refused, 409, "EmailAlreadyRegistered").await;
    assert!(problem.get("link_token").is_none());
    assert!(
        app.sim.issued_access_tokens().is_empty(),
        "the code was never exchanged: no grant is left live at Apple"
    );
    assert!(app.revocations_at(Provider::Apple).is_empty());
    app.stop().await;
}

#[tokio::test]
async fn a_sign_in_offered_a_link_keeps_the_exchanged_grant_in_its_token() {
    let app = spawn().await;
    let bearer = token(&app.register("grace@example.com").await);
    let refused = sign_in(&app, &with_code(&app, &grace())).await;
    let problem = assert_problem(refused, 409, "EmailAlreadyRegistered").await;
    assert_eq!(
        app.sim.issued_access_tokens().len(),
        1,
        "the code was exchanged"
    );
    assert!(
        app.revocations_at(Provider::Apple).is_empty(),
        "and its grant kept for the link"
    );
    let body = json!({ "link_token": problem["link_token"] });
    let linked = app.post("/auth/link/complete", &body, Some(&bearer)).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    // The link holds that grant: disconnecting revokes it at Apple.
    let unlinked = app.disconnect("apple", &bearer).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    app.assert_one_live_revocation(Provider::Apple);
    app.stop().await;
}
