//! POST callback (docs/api.md#callback): registering, signing in, and failing without side effects.

use crate::world::{CODE, RawInput, World, ada_on_github, github_login, login_at};
use social_login_app::AppError;
use social_login_domain::ProviderKey;
use social_login_ports::{Clock, PostBody, ProviderError, TokenCipher};

#[tokio::test]
async fn a_new_provider_account_registers_a_new_user() {
    let (world, result) = World::signed_in(github_login("gh-1", "Ada@Example.com")).await;
    assert!(result.is_new_user);
    let user = &result.user;
    assert_eq!(user.email.as_ref().unwrap().as_str(), "Ada@Example.com");
    assert!(user.email_verified);
    assert!(!user.has_password());
    assert_eq!(user.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(
        user.avatar_url.as_deref(),
        Some("https://avatars.test/ada.png")
    );
    assert_eq!(user.created_at, world.clock.now());
    assert_eq!(world.service.me(user.id).await.as_ref(), Ok(user));
    let links = world.service.accounts(user.id).await.unwrap();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].provider, ProviderKey::GITHUB);
    assert_eq!(links[0].subject.as_str(), "gh-1");
}

#[tokio::test]
async fn a_new_user_gets_a_working_session() {
    let (world, result) = World::signed_in(ada_on_github()).await;
    assert_eq!(
        world
            .service
            .authenticate(result.access_token.value.expose()),
        Some(result.user.id)
    );
    let refreshed = world.refresh_with(&result).await.unwrap();
    assert_eq!(refreshed.user.id, result.user.id);
}

#[tokio::test]
async fn provider_tokens_are_stored_sealed() {
    let world = World::new();
    world.login_with(ada_on_github()).await;
    let (access, refresh) = world
        .users
        .stored_tokens(ProviderKey::GITHUB, "gh-1")
        .unwrap();
    let refresh = refresh.unwrap();
    assert_ne!(access.as_str(), "gh-1-access");
    assert!(!access.as_str().contains("gh-1-access"));
    assert_ne!(refresh.as_str(), "gh-1-refresh");
    assert_eq!(world.cipher.open(&access).unwrap().expose(), "gh-1-access");
    assert_eq!(
        world.cipher.open(&refresh).unwrap().expose(),
        "gh-1-refresh"
    );
}

#[tokio::test]
async fn a_new_user_takes_an_unverified_email_as_unverified() {
    let world = World::new();
    let login = login_at(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), false);
    let result = world.login_with(login).await;
    assert!(result.is_new_user);
    assert!(!result.user.email_verified);
}

#[tokio::test]
async fn a_provider_without_email_registers_a_user_without_email() {
    let world = World::new();
    let login = login_at(ProviderKey::GITHUB, "gh-1", None, true);
    let result = world.login_with(login).await;
    assert!(result.is_new_user);
    assert_eq!(result.user.email, None);
    assert!(!result.user.email_verified);
}

#[tokio::test]
async fn two_accounts_without_email_become_two_users() {
    let (world, first) = World::signed_in(login_at(ProviderKey::GITHUB, "gh-1", None, false)).await;
    let second = world
        .login_with(login_at(ProviderKey::GITHUB, "gh-2", None, false))
        .await;
    assert!(second.is_new_user);
    assert_ne!(first.user.id, second.user.id);
}

#[tokio::test]
async fn a_returning_account_signs_its_user_in_with_fresh_provider_tokens() {
    let (world, first) = World::signed_in(ada_on_github()).await;
    let mut again = ada_on_github();
    again.tokens.access_token = social_login_domain::SecretText::new("second-access");
    again.tokens.refresh_token = Some(social_login_domain::SecretText::new("second-refresh"));
    let second = world.login_with(again).await;
    assert!(!second.is_new_user);
    assert_eq!(second.user, first.user);
    assert_eq!(world.users.user_count(), 1);
    assert_eq!(world.users.link_count(), 1);
    assert_eq!(
        world.opened_tokens(ProviderKey::GITHUB, "gh-1"),
        (
            "second-access".to_owned(),
            Some("second-refresh".to_owned())
        )
    );
}

#[tokio::test]
async fn a_returning_login_without_a_provider_refresh_token_keeps_the_old_one() {
    let world = World::new();
    world.login_with(ada_on_github()).await;
    let mut again = ada_on_github();
    again.tokens.access_token = social_login_domain::SecretText::new("second-access");
    again.tokens.refresh_token = None;
    world.login_with(again).await;
    assert_eq!(
        world.opened_tokens(ProviderKey::GITHUB, "gh-1"),
        ("second-access".to_owned(), Some("gh-1-refresh".to_owned()))
    );
}

#[tokio::test]
async fn a_returning_account_signs_in_whatever_its_email_now_says() {
    let (world, first) = World::signed_in(ada_on_github()).await;
    world.register("bob@example.com", "correct horse").await;
    let moved = login_at(ProviderKey::GITHUB, "gh-1", Some("bob@example.com"), false);
    let second = world.login_with(moved).await;
    assert_eq!(second.user.id, first.user.id);
    assert!(!second.is_new_user);
}

#[tokio::test]
async fn the_post_body_is_handed_to_the_provider_untouched() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    let post_body = PostBody::new(r#"{"user": {"name": {"firstName": "Ada"}}}"#);
    world
        .service
        .callback_raw("github", CODE, &state, Some(post_body.clone()))
        .await
        .unwrap();
    assert_eq!(world.github.received()[0].post_body, Some(post_body));
}

#[tokio::test]
async fn a_provider_that_fails_the_login_fails_the_callback_and_writes_nothing() {
    for (case, failure, error) in [
        (
            "a refused code exchange",
            ProviderError::CodeExchange("invalid_grant".into()),
            AppError::CodeExchangeFailed("invalid_grant".into()),
        ),
        (
            "a failed user info fetch",
            ProviderError::UserInfo("GET /user: 500".into()),
            AppError::UserInfoFailed("GET /user: 500".into()),
        ),
    ] {
        let world = World::new();
        world.github_refuses(failure);
        let state = world.login_state("github").await;
        assert_eq!(world.callback("github", &state).await, Err(error), "{case}");
        world.assert_nothing_stored(case);
    }
}

#[tokio::test]
async fn an_empty_or_over_long_code_is_a_validation_error() {
    let world = World::new();
    let state = world.started_login(ada_on_github()).await;
    for code in [String::new(), "c".repeat(2049)] {
        assert!(matches!(
            world.service.callback_raw("github", &code, &state, None).await,
            Err(AppError::Validation(message)) if message.starts_with("code")
        ));
    }
    assert!(world.github.received().is_empty());
    // A code of the longest allowed length goes through, on the state not yet spent.
    let longest = "c".repeat(2048);
    assert!(
        world
            .service
            .callback_raw("github", &longest, &state, None)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_callback_for_a_provider_that_is_not_enabled_is_not_configured() {
    let world = World::new();
    let state = world.login_state("github").await;
    assert_eq!(
        world.callback("apple", &state).await,
        Err(AppError::ProviderNotConfigured)
    );
    // Refused before the state was looked at: the value is still good for github.
    assert!(!world.is_spent(&state));
}

#[tokio::test]
async fn randomness_comes_through_its_port_so_a_seed_repeats_every_id_and_value() {
    let (one, two) = (World::new(), World::new());
    let mut results = Vec::new();
    for world in [&one, &two] {
        let state = world.login_state("github").await;
        let verifier = world.sealed(&state).pkce_verifier;
        let login = world.login_with(ada_on_github()).await;
        results.push((verifier, login.user.id));
    }
    assert_eq!(results[0], results[1]);
}
