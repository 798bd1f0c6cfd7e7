//! docs/api.md#linking-rules: what a provider login does when its email belongs to an existing user.

use crate::world::{World, ada_on_github, github_login, login_at};
use social_login_app::{AppError, AppResult};
use social_login_domain::ProviderKey;

/// A user whose email came verified from Google, as auto-linking requires.
async fn google_user(world: &World, email: &str) -> social_login_app::LoginResult {
    let login = login_at(ProviderKey::GOOGLE, "goo-1", Some(email), true);
    world.login_with(login).await
}

/// A 409 that offers the holder of the email a link token (docs/api.md#finishing-a-link).
fn offers_a_link<T: std::fmt::Debug>(outcome: &AppResult<T>) -> bool {
    matches!(outcome, Err(AppError::LinkOffered { .. }))
}

#[tokio::test]
async fn a_matching_email_is_refused_when_auto_linking_is_off() {
    let world = World::new();
    let owner = google_user(&world, "ada@example.com").await;
    let refused = world.sign_in(github_login("gh-1", "ADA@example.com")).await;
    assert!(offers_a_link(&refused), "{refused:?}");
    assert_eq!(world.users.user_count(), 1);
    assert_eq!(world.users.link_count(), 1);
    assert!(
        world
            .users
            .stored_tokens(ProviderKey::GITHUB, "gh-1")
            .is_none()
    );
    assert_eq!(
        world.service.accounts(owner.user.id).await.unwrap().len(),
        1
    );
    // Only the owner's session exists: the refused login started none.
    assert_eq!(world.refresh_tokens.stored_count(), 1);
}

#[tokio::test]
async fn a_verified_matching_email_links_when_auto_linking_is_on() {
    let world = World::auto_linking();
    let owner = google_user(&world, "ada@example.com").await;
    // Links list oldest first; a later login is a later link.
    world.clock.advance(time::Duration::seconds(1));
    let result = world
        .login_with(github_login("gh-1", "Ada@Example.COM"))
        .await;
    assert!(!result.is_new_user);
    assert_eq!(result.user.id, owner.user.id);
    assert_eq!(world.users.user_count(), 1);
    let providers: Vec<ProviderKey> = world
        .service
        .accounts(owner.user.id)
        .await
        .unwrap()
        .iter()
        .map(|link| link.provider)
        .collect();
    assert_eq!(providers, [ProviderKey::GOOGLE, ProviderKey::GITHUB]);
    let (access, _) = world
        .users
        .stored_tokens(ProviderKey::GITHUB, "gh-1")
        .unwrap();
    assert_ne!(access.as_str(), "gh-1-access");
}

#[tokio::test]
async fn an_auto_linked_account_signs_in_directly_next_time() {
    let world = World::auto_linking();
    let owner = google_user(&world, "ada@example.com").await;
    world.login_with(ada_on_github()).await;
    let again = world.login_with(ada_on_github()).await;
    assert_eq!(again.user.id, owner.user.id);
    assert_eq!(world.users.link_count(), 2);
}

#[tokio::test]
async fn an_unverified_provider_email_never_links() {
    let world = World::auto_linking();
    google_user(&world, "ada@example.com").await;
    let unverified = login_at(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), false);
    assert_eq!(
        world.sign_in(unverified).await,
        Err(AppError::EmailAlreadyRegistered)
    );
    assert_eq!(world.users.link_count(), 1);
}

#[tokio::test]
async fn a_pre_registered_unverified_user_is_never_linked() {
    // The pre-registration takeover: someone registered the victim's address first.
    let world = World::auto_linking();
    let squatter = world.register("ada@example.com", "correct horse").await;
    // Refused: only whoever holds the squatter's password could accept the offer.
    let refused = world.sign_in(ada_on_github()).await;
    assert!(offers_a_link(&refused), "{refused:?}");
    assert!(
        world
            .service
            .accounts(squatter.user.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(world.users.user_count(), 1);
}

#[tokio::test]
async fn an_unverified_provider_email_claims_no_address() {
    let world = World::auto_linking();
    let squatter = world
        .login_with(login_at(
            ProviderKey::GOOGLE,
            "goo-squatter",
            Some("victim@example.com"),
            false,
        ))
        .await;
    assert_eq!(
        squatter.user.email.as_ref().map(|e| e.as_str()),
        Some("victim@example.com")
    );
    // The owner registers with a password, then signs in with a verified GitHub email.
    let owner = world.register("Victim@Example.com", "correct horse").await;
    assert_ne!(owner.user.id, squatter.user.id);
    let github = world
        .sign_in(github_login("gh-owner", "victim@example.com"))
        .await;
    // The password account's email is unverified: no auto-link to it, and never to the
    // squatter.
    assert!(offers_a_link(&github), "{github:?}");
    assert_eq!(world.users.user_count(), 2);
}

#[tokio::test]
async fn a_link_token_is_refused_once_its_ten_minutes_are_over() {
    let world = World::new();
    let owner = google_user(&world, "ada@example.com").await;
    let refused = world.sign_in(github_login("gh-1", "ada@example.com")).await;
    let Err(AppError::LinkOffered { link_token }) = refused else {
        panic!("a link offered: {refused:?}");
    };
    let origin = social_login_domain::Origin::default();
    world
        .clock
        .advance(social_login_domain::link_offer::LINK_OFFER_TTL);
    let caller = world.fresh_login(owner.user.id).await;
    let late = world
        .service
        .complete_link(caller, &link_token, &origin)
        .await;
    assert_eq!(late.err(), Some(AppError::InvalidLinkToken));
    assert_eq!(world.users.link_count(), 1, "nothing linked");
}
