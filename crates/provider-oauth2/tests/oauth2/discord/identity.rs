//! Successful sign-ins: how Discord's user object becomes the identity and the tokens.

use super::support::*;
use social_login_conformance::{assert_tokens, email_of};
use social_login_domain::ProviderIdentity;
use social_login_simulator::{DiscordSeed, SimUser};

#[tokio::test]
async fn a_migrated_user_signs_in_with_a_verified_email_and_the_default_avatar() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let default_avatar = ProviderIdentity {
        // (1047859021147058176 >> 22) % 6 = 4.
        avatar_url: Some("https://cdn.discordapp.com/embed/avatars/4.png".into()),
        ..FX.seeded_identity()
    };
    assert_eq!(login.identity, default_avatar);
    // Discord sends a refresh token.
    assert_tokens(&login.tokens, "", true);
}

#[tokio::test]
async fn a_legacy_user_without_display_name_gets_username_and_discriminator_avatar() {
    let legacy = SimUser::new("80351110224678912", "nelly")
        .with_email("nelly@example.com", true)
        .with_discord(DiscordSeed::legacy("1337"));
    let identity = crate::identity_with(&FX, legacy, crate::fixture_settings).await;
    assert_eq!(identity.full_name.as_deref(), Some("nelly"));
    // 1337 % 5 = 2, not the id-based index (which would be 5).
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://cdn.discordapp.com/embed/avatars/2.png")
    );
}

#[tokio::test]
async fn an_animated_avatar_hash_gives_a_gif_and_a_static_one_a_png() {
    const AVATARS: &str = "https://cdn.discordapp.com/avatars/1047859021147058176";
    for (hash, file) in [
        (
            "a_1269e74af4df7417b13759eae50c83dc",
            "a_1269e74af4df7417b13759eae50c83dc.gif",
        ),
        (
            "1269e74af4df7417b13759eae50c83dc",
            "1269e74af4df7417b13759eae50c83dc.png",
        ),
    ] {
        let user = FX
            .user()
            .with_discord(DiscordSeed::migrated().with_avatar(hash));
        let identity = crate::identity_with(&FX, user, crate::fixture_settings).await;
        let expected = format!("{AVATARS}/{file}");
        assert_eq!(identity.avatar_url.as_deref(), Some(&*expected), "{hash}");
    }
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_never_verified() {
    let user = FX.user().with_email("ada@example.com", false);
    let identity = crate::identity_with(&FX, user, crate::fixture_settings).await;
    assert_eq!(email_of(&identity), Some("ada@example.com"));
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn a_user_without_email_still_signs_in() {
    let user = SimUser::new("1047859021147058176", "ada.lovelace").with_name("Ada");
    let identity = crate::identity_with(&FX, user, crate::fixture_settings).await;
    let no_email = (identity.email, identity.email_verified);
    assert_eq!(no_email, (None, false));
    assert_eq!(identity.full_name.as_deref(), Some("Ada"));
}
