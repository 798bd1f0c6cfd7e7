//! Successful sign-ins: how Discord's user object becomes the identity and the tokens.

use crate::support::*;
use social_login_domain::ProviderKey;
use social_login_simulator::{DiscordSeed, Endpoint, SimUser};
use std::time::Duration;

#[tokio::test]
async fn a_migrated_user_signs_in_with_a_verified_email_and_the_default_avatar() {
    let sim = simulator(ada()).await;
    let login = sign_in_at(&provider(&sim)).await.unwrap();
    let identity = login.identity;
    assert_eq!(identity.provider, ProviderKey::Discord);
    assert_eq!(identity.subject.as_str(), "1047859021147058176");
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada"));
    // (1047859021147058176 >> 22) % 6 = 4.
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://cdn.discordapp.com/embed/avatars/4.png")
    );
    assert!(!login.tokens.access_token.expose().is_empty());
    assert!(login.tokens.refresh_token.is_some(), "Discord sends one");
}

#[tokio::test]
async fn a_returning_user_gets_the_same_subject_and_fresh_tokens() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let first = sign_in_at(&provider).await.unwrap();
    let second = sign_in_at(&provider).await.unwrap();
    assert_eq!(first.identity, second.identity);
    assert_ne!(
        first.tokens.access_token.expose(),
        second.tokens.access_token.expose()
    );
}

#[tokio::test]
async fn a_legacy_user_without_display_name_gets_username_and_discriminator_avatar() {
    let legacy = SimUser::new("80351110224678912", "nelly")
        .with_email("nelly@example.com", true)
        .with_discord(DiscordSeed::legacy("1337"));
    let identity = identity_of(legacy).await;
    assert_eq!(identity.full_name.as_deref(), Some("nelly"));
    // 1337 % 5 = 2, not the id-based index (which would be 5).
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://cdn.discordapp.com/embed/avatars/2.png")
    );
}

#[tokio::test]
async fn an_animated_avatar_hash_gives_a_gif_and_a_static_one_a_png() {
    let animated = ada()
        .with_discord(DiscordSeed::migrated().with_avatar("a_1269e74af4df7417b13759eae50c83dc"));
    assert_eq!(
        identity_of(animated).await.avatar_url.as_deref(),
        Some(
            "https://cdn.discordapp.com/avatars/1047859021147058176/a_1269e74af4df7417b13759eae50c83dc.gif"
        )
    );
    let still =
        ada().with_discord(DiscordSeed::migrated().with_avatar("1269e74af4df7417b13759eae50c83dc"));
    assert_eq!(
        identity_of(still).await.avatar_url.as_deref(),
        Some(
            "https://cdn.discordapp.com/avatars/1047859021147058176/1269e74af4df7417b13759eae50c83dc.png"
        )
    );
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_never_verified() {
    let user = ada().with_email("ada@example.com", false);
    let identity = identity_of(user).await;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn a_user_without_email_still_signs_in() {
    let user = SimUser::new("1047859021147058176", "ada.lovelace").with_name("Ada");
    let identity = identity_of(user).await;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada"));
}

#[tokio::test]
async fn without_the_email_scope_there_is_no_email() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["identify".into()]);
    let provider = provider_with(settings, Duration::from_secs(10));
    let identity = sign_in_at(&provider).await.unwrap().identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn the_user_endpoint_is_called_with_the_bearer_token() {
    let sim = simulator(ada()).await;
    sign_in_at(&provider(&sim)).await.unwrap();
    let record = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Userinfo))
        .unwrap();
    assert_eq!(record.outcome, "ok");
    assert_eq!(record.authorization_scheme.as_deref(), Some("Bearer"));
}
