//! POST connect (docs/api.md#connect): linking a provider account to the calling user.

use crate::world::{RawInput, World, ada_on_github, github_login, login_at};
use social_login_app::AppError;
use social_login_domain::ProviderKey;
use social_login_ports::{Clock, ProviderError, TokenCipher};
use time::Duration;

#[tokio::test]
async fn connect_links_the_provider_account_to_the_caller() {
    let (world, caller) = World::with_user("ada@example.com").await;
    world.clock.advance(Duration::minutes(1));
    let linked = world
        .link(caller, github_login("gh-1", "ada@github.example"))
        .await;
    assert_eq!(linked.user_id, caller);
    assert_eq!(linked.provider, ProviderKey::GITHUB);
    assert_eq!(linked.subject.as_str(), "gh-1");
    assert_eq!(
        linked.email.as_ref().unwrap().as_str(),
        "ada@github.example"
    );
    assert_eq!(linked.created_at, world.clock.now());
    assert_eq!(world.service.accounts(caller).await.unwrap(), [linked]);
    let (access, _) = world
        .users
        .stored_tokens(ProviderKey::GITHUB, "gh-1")
        .unwrap();
    assert_ne!(access.as_str(), "gh-1-access");
    assert_eq!(world.cipher.open(&access).unwrap().expose(), "gh-1-access");
}

#[tokio::test]
async fn connect_ignores_whose_email_the_provider_reports() {
    // Connect is proven by the caller's session, not by the email: no email rule applies.
    let world = World::new();
    world.register("bob@example.com", "correct horse").await;
    let caller = world.user("ada@example.com").await;
    let login = login_at(ProviderKey::GITHUB, "gh-1", Some("bob@example.com"), false);
    assert!(world.connect_as(caller, login).await.is_ok());
}

#[tokio::test]
async fn an_account_linked_to_another_user_cannot_be_connected() {
    let bobs = || github_login("gh-1", "bob@example.com");
    let (world, owner) = World::signed_in(bobs()).await;
    let caller = world.user("ada@example.com").await;
    let refused = world.connect_as_refusal(caller, bobs()).await;
    assert_eq!(refused, AppError::ProviderAlreadyLinked);
    assert!(world.service.accounts(caller).await.unwrap().is_empty());
    assert_eq!(
        world.service.accounts(owner.user.id).await.unwrap().len(),
        1
    );
}

#[tokio::test]
async fn a_caller_who_has_that_provider_already_cannot_connect_a_second_account() {
    let (world, caller) = World::with_user("ada@example.com").await;
    world.link(caller, ada_on_github()).await;
    let second = github_login("gh-2", "ada@example.com");
    let refused = world.connect_as_refusal(caller, second).await;
    assert_eq!(refused, AppError::ProviderAlreadyLinked);
    world.assert_no_tokens(ProviderKey::GITHUB, "gh-2");
}

#[tokio::test]
async fn connecting_the_callers_own_account_again_renews_its_tokens() {
    let (world, caller) = World::with_user("ada@example.com").await;
    let first = world.link(caller, ada_on_github()).await;
    let mut again = ada_on_github();
    again.tokens.access_token = social_login_domain::SecretText::new("gho_renewed");
    again.tokens.refresh_token = None;

    let renewed = world.link(caller, again).await;

    assert_eq!(renewed.id, first.id, "the same link");
    assert_eq!(world.users.link_count(), 1);
    let (access, refresh) = world.opened_tokens(ProviderKey::GITHUB, "gh-1");
    assert_eq!(access, "gho_renewed");
    assert!(
        refresh.is_some(),
        "a renewal without a refresh token keeps the stored one"
    );
    let kinds: Vec<_> = world
        .users
        .events()
        .iter()
        .map(|event| event.kind)
        .collect();
    assert_eq!(
        kinds.last(),
        Some(&social_login_domain::AuditEventType::ProviderTokenRefreshed)
    );
}

#[tokio::test]
async fn a_caller_may_connect_several_providers() {
    let (world, caller) = World::with_user("ada@example.com").await;
    world.link(caller, ada_on_github()).await;
    world
        .link(caller, login_at(ProviderKey::GOOGLE, "goo-1", None, false))
        .await;
    assert_eq!(world.service.accounts(caller).await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_failed_code_exchange_on_connect_links_nothing() {
    let (world, caller) = World::with_user("ada@example.com").await;
    world.github_refuses(ProviderError::CodeExchange("invalid_grant".into()));
    let state = world.connect_state("github", caller).await;
    let refused = world.connect_refusal(caller, "github", &state).await;
    assert_eq!(
        refused,
        AppError::CodeExchangeFailed("invalid_grant".into())
    );
}

#[tokio::test]
async fn connect_by_a_caller_who_no_longer_exists_is_refused() {
    let (world, ghost) = World::with_user("pat@example.com").await;
    let state = world.started_connect(ghost, ada_on_github()).await;
    let caller = world.fresh_login(ghost).await;
    world.delete_account(caller).await.unwrap();
    let refused = world
        .service
        .connect_raw(caller, "github", crate::world::CODE, &state)
        .await;
    let outcome = (refused.err(), world.users.link_count());
    let expected = (Some(AppError::ReauthenticationRequired), 0);
    assert_eq!(
        outcome, expected,
        "its session went with it; nothing is linked"
    );
}

#[tokio::test]
async fn connect_to_a_provider_that_is_not_enabled_is_not_configured() {
    let (world, caller) = World::with_user("ada@example.com").await;
    let state = world.connect_state("github", caller).await;
    let refused = world.connect_refusal(caller, "apple", &state).await;
    assert_eq!(refused, AppError::ProviderNotConfigured);
}

#[tokio::test]
async fn connect_with_an_empty_code_is_a_validation_error() {
    let (world, caller) = World::with_user("ada@example.com").await;
    let state = world.connect_state("github", caller).await;
    assert!(matches!(
        world
            .service
            .connect_raw(world.fresh_login(caller).await, "github", "", &state)
            .await,
        Err(AppError::Validation(_))
    ));
}
