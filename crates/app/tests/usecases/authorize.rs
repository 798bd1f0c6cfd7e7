//! GET authorize (docs/api.md#authorize): which state is issued, and where it goes.

use crate::world::RawInput;
use crate::world::World;
use social_login_app::{AppError, AuthPolicy};
use social_login_domain::{ProviderKey, Purpose, UserId};
use social_login_ports::Clock;
use social_login_testing::state_in;
use time::Duration;

#[tokio::test]
async fn an_unknown_provider_key_is_not_configured() {
    let world = World::new();
    for key in ["myspace", "GitHub", "", " github"] {
        assert_eq!(
            world.service.authorize_raw(key, None).await,
            Err(AppError::ProviderNotConfigured),
            "{key:?}"
        );
    }
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn a_provider_absent_from_the_registry_is_not_configured() {
    let world = World::new();
    assert_eq!(
        world.service.authorize_raw("apple", None).await,
        Err(AppError::ProviderNotConfigured)
    );
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn without_a_bearer_the_state_is_for_login() {
    let world = World::new();
    let state = world.login_state("github").await;
    let stored = world.sealed(&state);
    assert_eq!(stored.purpose, Purpose::Login);
    assert_eq!(stored.provider, ProviderKey::GITHUB);
}

#[tokio::test]
async fn a_valid_bearer_binds_the_state_to_its_user() {
    let (world, user) = World::with_user("pat@example.com").await;
    let state = world.connect_state("google", user).await;
    let stored = world.sealed(&state);
    assert_eq!(stored.purpose, Purpose::Connect { user });
    assert_eq!(stored.provider, ProviderKey::GOOGLE);
}

#[tokio::test]
async fn a_bearer_that_does_not_authenticate_starts_a_login_instead_of_failing() {
    let world = World::new();
    let expired = world.bearer_for(UserId::new()).await;
    world.clock.advance(Duration::hours(1));
    for (case, bearer) in [
        ("not a token", "not-a-token"),
        ("expired an hour ago", &expired),
    ] {
        let url = world.service.authorize_raw("github", Some(bearer)).await;
        let state = state_in(&url.expect("authorize succeeds"));
        assert_eq!(world.sealed(&state).purpose, Purpose::Login, "{case}");
    }
}

#[tokio::test]
async fn the_authorization_url_carries_the_sealed_state() {
    let world = World::new();
    let url = world.service.authorize_raw("github", None).await.unwrap();
    assert!(
        url.starts_with("https://github.idp.test/authorize?"),
        "{url}"
    );
    assert!(world.sealer.peek(&state_in(&url)).is_some());
}

#[tokio::test]
async fn every_authorize_issues_a_fresh_state_and_verifier() {
    let world = World::new();
    let first = world.sealed(&world.login_state("github").await);
    let second = world.sealed(&world.login_state("github").await);
    assert_ne!(first.id, second.id);
    assert_ne!(first.pkce_verifier, second.pkce_verifier);
    assert_ne!(first.nonce, second.nonce);
    assert_eq!(first.pkce_verifier.expose().len(), 43);
}

#[tokio::test]
async fn authorize_writes_nothing_to_the_state_store() {
    let world = World::new();
    for _ in 0..100 {
        world.login_state("github").await;
    }
    assert_eq!(world.states.spent_count(), 0);
}

#[tokio::test]
async fn the_state_lives_ten_minutes_by_default() {
    let world = World::new();
    let state = world.sealed(&world.login_state("github").await);
    assert_eq!(state.expires_at, world.clock.now() + Duration::minutes(10));
}

#[tokio::test]
async fn the_state_lives_as_long_as_the_policy_says() {
    let world = World::with_policy(AuthPolicy {
        state_ttl: Duration::minutes(3),
        ..AuthPolicy::default()
    });
    let state = world.sealed(&world.login_state("github").await);
    assert_eq!(state.expires_at, world.clock.now() + Duration::minutes(3));
}
