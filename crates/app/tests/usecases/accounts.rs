//! GET accounts and DELETE disconnect (docs/api.md#accounts, #disconnect).

use crate::world::{RawInput, World, ada_on_github, github_login, login_at};
use social_login_app::AppError;
use social_login_domain::{ProviderKey, UserId};
use time::Duration;

fn google_login(subject: &str) -> social_login_ports::ProviderLogin {
    login_at(ProviderKey::GOOGLE, subject, None, false)
}

#[tokio::test]
async fn accounts_lists_only_the_callers_links_oldest_first() {
    let world = World::new();
    let ada = world.login_with(google_login("goo-ada")).await.user.id;
    world.clock.advance(Duration::seconds(5));
    let bob = world
        .login_with(github_login("gh-bob", "bob@example.com"))
        .await
        .user
        .id;
    world.clock.advance(Duration::seconds(5));
    world
        .link(ada, github_login("gh-ada", "ada@example.com"))
        .await;
    let ada_links = world.service.accounts(ada).await.unwrap();
    let subjects: Vec<&str> = ada_links.iter().map(|link| link.subject.as_str()).collect();
    assert_eq!(subjects, ["goo-ada", "gh-ada"]);
    assert!(ada_links.iter().all(|link| link.user_id == ada));
    let bob_links = world.service.accounts(bob).await.unwrap();
    assert_eq!(bob_links.len(), 1);
    assert_eq!(bob_links[0].subject.as_str(), "gh-bob");
}

#[tokio::test]
async fn a_user_without_links_has_an_empty_list() {
    let (world, user) = World::with_user("ada@example.com").await;
    assert_eq!(world.service.accounts(user).await, Ok(vec![]));
}

#[tokio::test]
async fn disconnecting_a_provider_that_is_not_linked_is_not_found() {
    let (world, user) = World::with_user("ada@example.com").await;
    let refused = world.disconnect_refusal(user, "github").await;
    assert_eq!(refused, AppError::AccountNotFound);
}

#[tokio::test]
async fn disconnecting_another_users_provider_is_not_found() {
    let world = World::new();
    let owner = world.login_with(google_login("goo-1")).await.user.id;
    world.link(owner, ada_on_github()).await;
    let caller = world.user("eve@example.com").await;
    let refused = world.disconnect_refusal(caller, "github").await;
    assert_eq!(refused, AppError::AccountNotFound);
    assert_eq!(world.service.accounts(owner).await.unwrap().len(), 2);
}

#[tokio::test]
async fn disconnect_for_a_provider_that_is_not_enabled_is_not_configured() {
    let (world, user) = World::with_user("ada@example.com").await;
    for provider in ["apple", "nope"] {
        let refused = world.disconnect_refusal(user, provider).await;
        assert_eq!(refused, AppError::ProviderNotConfigured);
    }
}

#[tokio::test]
async fn the_only_link_of_a_user_without_password_stays() {
    let (world, login) = World::signed_in(ada_on_github()).await;
    let refused = world.disconnect_refusal(login.user.id, "github").await;
    assert_eq!(refused, AppError::LastLoginMethod);
}

#[tokio::test]
async fn the_only_link_may_go_when_the_user_has_a_password() {
    let (world, user) = World::with_user("ada@example.com").await;
    world.link(user, ada_on_github()).await;
    assert_eq!(world.service.disconnect_raw(user, "github").await, Ok(()));
    assert!(world.service.accounts(user).await.unwrap().is_empty());
    world.assert_no_tokens(ProviderKey::GITHUB, "gh-1");
}

#[tokio::test]
async fn the_second_of_two_links_may_go_and_the_first_stays() {
    let world = World::new();
    let user = world.login_with(google_login("goo-1")).await.user.id;
    world.link(user, ada_on_github()).await;
    assert_eq!(world.service.disconnect_raw(user, "github").await, Ok(()));
    let left = world.service.accounts(user).await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].provider, ProviderKey::GOOGLE);
    // ...and that one is now the last way in.
    let refused = world.disconnect_refusal(user, "google").await;
    assert_eq!(refused, AppError::LastLoginMethod);
}

#[tokio::test]
async fn a_disconnected_account_can_be_connected_again() {
    let (world, user) = World::with_user("ada@example.com").await;
    world.link(user, ada_on_github()).await;
    world.service.disconnect_raw(user, "github").await.unwrap();
    assert!(world.connect_as(user, ada_on_github()).await.is_ok());
}

#[tokio::test]
async fn disconnect_for_a_vanished_user_is_not_found() {
    let world = World::new();
    let refused = world.disconnect_refusal(UserId::new(), "github").await;
    assert_eq!(refused, AppError::AccountNotFound);
}
