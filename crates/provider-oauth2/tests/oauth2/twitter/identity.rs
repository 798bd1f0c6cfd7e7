//! Successful sign-ins: how `/2/users/me` becomes the identity, and when there is an email.

use super::support::*;
use social_login_conformance::assert_tokens;
use social_login_simulator::SimUser;

#[tokio::test]
async fn with_the_email_scope_the_confirmed_email_is_a_verified_email() {
    let sim = FX.start().await;
    let provider = provider_with(settings_with_email(&FX, &sim));
    let login = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(login.identity, FX.seeded_identity());
    // `offline.access` gives a refresh token.
    assert_tokens(&login.tokens, "", true);
}

#[tokio::test]
async fn with_the_default_scopes_a_user_signs_in_without_email() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    assert_eq!(login.identity.email, None);
    assert!(!login.identity.email_verified);
    assert_eq!(login.identity.full_name.as_deref(), Some("Ada Lovelace"));
}

#[tokio::test]
async fn an_account_without_a_confirmed_email_signs_in_without_email() {
    let unconfirmed = FX.user().with_email("ada@example.com", false);
    let identity = identity_with_email_scope(unconfirmed).await;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    let no_email = SimUser::new("2244994946", "grace").with_name("Grace Hopper");
    let identity = identity_with_email_scope(no_email).await;
    assert_eq!(identity.email, None);
}

#[tokio::test]
async fn without_offline_access_there_is_no_refresh_token() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.scopes = Some(vec!["tweet.read".into(), "users.read".into()]);
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(login.tokens.refresh_token, None);
}
