//! POST /auth/refresh, POST /auth/logout and GET /users/me.

use crate::world::{PASSWORD, World};
use social_login_app::AppError;
use social_login_domain::UserId;
use social_login_ports::Clock;
use time::Duration;

#[tokio::test]
async fn refresh_rotates_the_refresh_token() {
    let (world, login) = World::signed_up("ada@example.com").await;
    world.clock.advance(Duration::minutes(20));
    let refreshed = world.refreshed(&login).await;
    assert_eq!(refreshed.user.id, login.user.id);
    assert!(!refreshed.is_new_user);
    assert_ne!(refreshed.refresh_token, login.refresh_token);
    assert_eq!(
        world
            .service
            .authenticate(refreshed.access_token.value.expose()),
        Some(login.user.id)
    );
    assert!(refreshed.access_token.expires_at > world.clock.now());
}

#[tokio::test]
async fn a_rotated_refresh_token_no_longer_works() {
    let (world, login) = World::signed_up("ada@example.com").await;
    world.refreshed(&login).await;
    world.assert_refresh_refused(&login).await;
}

#[tokio::test]
async fn reuse_of_a_rotated_token_revokes_its_successor_too() {
    let (world, login) = World::signed_up("ada@example.com").await;
    let successor = world.refreshed(&login).await;
    // A thief replays the old token: the whole family goes.
    assert!(world.refresh_with(&login).await.is_err());
    world.assert_refresh_refused(&successor).await;
}

#[tokio::test]
async fn reuse_revokes_only_its_own_family() {
    let (world, first) = World::signed_up("ada@example.com").await;
    let other_device = world.password_signed_in("ada@example.com", PASSWORD).await;
    world.refreshed(&first).await;
    let _ = world.refresh_with(&first).await;
    assert!(world.refresh_with(&other_device).await.is_ok());
}

#[tokio::test]
async fn an_expired_refresh_token_is_refused() {
    let (world, login) = World::signed_up("ada@example.com").await;
    world.clock.advance(Duration::days(30));
    world.assert_refresh_refused(&login).await;
}

#[tokio::test]
async fn an_unknown_refresh_token_is_refused() {
    let world = World::new();
    assert_eq!(
        world.refresh("refresh:not-one-we-issued").await,
        Err(AppError::InvalidCredentials)
    );
}

#[tokio::test]
async fn logout_makes_the_refresh_token_fail() {
    let (world, login) = World::signed_up("ada@example.com").await;
    assert_eq!(world.logout(login.refresh_token.expose()).await, Ok(()));
    world.assert_refresh_refused(&login).await;
}

#[tokio::test]
async fn logout_ends_the_rotated_successors_too() {
    let (world, login) = World::signed_up("ada@example.com").await;
    let successor = world.refreshed(&login).await;
    world
        .logout(successor.refresh_token.expose())
        .await
        .unwrap();
    assert!(world.refresh_with(&successor).await.is_err());
}

#[tokio::test]
async fn logout_with_an_unknown_token_is_accepted_silently() {
    let world = World::new();
    assert_eq!(world.logout("refresh:never-issued").await, Ok(()));
}

#[tokio::test]
async fn me_returns_the_callers_record() {
    let (world, login) = World::signed_up("ada@example.com").await;
    assert_eq!(world.service.me(login.user.id).await, Ok(login.user));
}

#[tokio::test]
async fn me_for_a_user_that_no_longer_exists_is_unauthorized() {
    let world = World::new();
    assert_eq!(
        world.service.me(UserId::new()).await,
        Err(AppError::Unauthorized)
    );
}

#[tokio::test]
async fn an_access_token_stops_authenticating_when_it_expires() {
    let (world, login) = World::signed_up("ada@example.com").await;
    let bearer = login.access_token.value.expose().to_owned();
    assert_eq!(world.service.authenticate(&bearer), Some(login.user.id));
    world.clock.advance(Duration::minutes(15));
    assert_eq!(world.service.authenticate(&bearer), None);
    assert_eq!(world.service.authenticate("garbage"), None);
}

#[tokio::test]
async fn a_login_result_never_prints_its_tokens() {
    let (_world, login) = World::signed_up("ada@example.com").await;
    let printed = format!("{login:?}");
    assert!(!printed.contains(login.refresh_token.expose()));
    assert!(!printed.contains(login.access_token.value.expose()));
    assert!(!printed.contains("ada@example.com"));
    assert!(!printed.contains("correct horse"));
}

#[tokio::test]
async fn a_session_ends_at_the_family_cap_however_often_it_rotates() {
    let world = World::with_policy(social_login_app::AuthPolicy {
        refresh_family_max: Duration::days(3),
        ..social_login_app::AuthPolicy::default()
    });
    let mut current = world.register("ada@example.com", "correct horse").await;
    for _ in 0..2 {
        world.clock.advance(Duration::hours(30));
        current = world.refreshed(&current).await;
    }
    world.clock.advance(Duration::hours(12));
    assert_eq!(
        world.refresh_with(&current).await,
        Err(AppError::InvalidCredentials),
        "72 hours after login the session is over, though the last token is 12 hours old"
    );
}

#[tokio::test]
async fn housekeeping_deletes_ended_sessions_only() {
    let (world, ended) = World::signed_up("ada@example.com").await;
    world.clock.advance(Duration::days(91));
    let live = world.register("grace@example.com", "correct horse").await;
    assert_eq!(world.refresh_tokens.stored_count(), 2);
    assert_eq!(world.service.prune_expired_sessions().await, Ok(2));
    assert_eq!(world.refresh_tokens.stored_count(), 1);
    assert!(world.refresh_with(&live).await.is_ok());
    world.assert_refresh_refused(&ended).await;
}
