//! Successful sign-ins: how the Graph API's user node becomes the identity.

use super::support::*;
use social_login_conformance::assert_tokens;
use social_login_domain::ProviderIdentity;
use social_login_simulator::SimUser;

#[tokio::test]
async fn a_user_signs_in_with_an_email_that_is_never_verified() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    // The seeded email is verified, but Facebook sends no verified flag: the email must
    // never link accounts.
    assert!(FX.user().email_verified);
    let never_verified = ProviderIdentity {
        email_verified: false,
        ..FX.seeded_identity()
    };
    assert_eq!(login.identity, never_verified);
    // Facebook has no refresh tokens.
    assert_tokens(&login.tokens, "EAA", false);
}

#[tokio::test]
async fn a_user_without_email_still_signs_in() {
    let user = SimUser::new("10229876543210988", "grace").with_name("Grace Hopper");
    let identity = crate::identity_with(&FX, user.clone(), crate::fixture_settings).await;
    // No email, no verified flag, the name and no avatar: as seeded.
    assert_eq!(identity, FX.identity_of(user));
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
