//! Successful sign-ins: how the Graph API's user node becomes the identity.

use super::support::*;
use social_login_domain::ProviderKey;
use social_login_simulator::SimUser;

#[tokio::test]
async fn a_user_signs_in_with_an_email_that_is_never_verified() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let identity = login.identity;
    assert_eq!(identity.provider, ProviderKey::FACEBOOK);
    assert_eq!(identity.subject.as_str(), "10229876543210987");
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    // Facebook sends no verified flag: the email must never link accounts.
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10229876543210987")
    );
    assert!(login.tokens.access_token.expose().starts_with("EAA"));
    assert_eq!(
        login.tokens.refresh_token, None,
        "Facebook has no refresh tokens"
    );
}

#[tokio::test]
async fn a_user_without_email_still_signs_in() {
    let user = SimUser::new("10229876543210988", "grace").with_name("Grace Hopper");
    let identity = crate::identity_with(&FX, user, crate::fixture_settings).await;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Grace Hopper"));
}

#[tokio::test]
async fn the_default_silhouette_picture_is_no_avatar() {
    let user = SimUser::new("10229876543210989", "nopic")
        .with_name("No Picture")
        .with_email("nopic@example.com", true);
    assert_eq!(
        crate::identity_with(&FX, user, crate::fixture_settings)
            .await
            .avatar_url,
        None
    );
}
