//! A recent login: deleting the account and linking a provider account need the session's
//! login (not its last refresh) to be at most `reauthentication` old. A login of any kind
//! sets that time; a refresh keeps it.

use crate::world::*;
use social_login_app::{AppError, AuthPolicy, IdTokenCommand};
use social_login_domain::{Origin, ProviderKey};
use social_login_ports::Clock;
use social_login_testing::state_in;
use time::Duration;

/// Past the default window of five minutes.
const SIX_MINUTES: Duration = Duration::minutes(6);

fn native_command(world: &World) -> IdTokenCommand {
    world.id_token_command("google", "header.payload.signature")
}

#[tokio::test]
async fn a_refresh_keeps_the_time_of_the_login_in_the_new_access_token() {
    let world = World::new();
    let login = world.login_with(ada_on_github()).await;
    let logged_in_at = world.clock.now();
    world.clock.advance(SIX_MINUTES);

    let refreshed = world.refreshed(&login).await;
    let access = world.access_of(&refreshed);
    assert_eq!(access.issued_at, world.clock.now(), "a new token");
    assert_eq!(access.auth_time, Some(logged_in_at), "of the same login");
}

#[tokio::test]
async fn a_session_refreshed_six_minutes_after_its_login_cannot_delete_the_account() {
    let world = World::new();
    let login = world.login_with(ada_on_github()).await;
    world.clock.advance(SIX_MINUTES);
    let refreshed = world.refreshed(&login).await;

    let refused = world.delete_account(world.access_of(&refreshed)).await;
    assert_eq!(refused, Err(AppError::ReauthenticationRequired));
    assert_eq!(world.users.user_count(), 1, "nothing deleted");
    assert!(world.github.revoked().is_empty(), "nothing revoked");

    // Logging in again is a login: the same user may delete now.
    let again = world.login_with(ada_on_github()).await;
    assert_eq!(again.user.id, login.user.id);
    world.delete_account(world.access_of(&again)).await.unwrap();
    assert_eq!(world.users.user_count(), 0);
}

#[tokio::test]
async fn the_access_token_of_a_session_that_ended_cannot_delete_the_account_or_connect() {
    let world = World::new();
    let login = world.login_with(ada_on_github()).await;
    let left_behind = world.access_of(&login);
    world
        .service
        .logout(login.refresh_token.expose(), &Origin::default())
        .await
        .unwrap();

    // Within its minutes of login, but its session is over (a logout on a shared screen).
    let refused = world.delete_account(left_behind).await;
    assert_eq!(refused, Err(AppError::ReauthenticationRequired));
    assert_eq!(world.users.user_count(), 1, "nothing deleted");
    let bearer = login.access_token.value.expose();
    let authorize = world.service.authorize_raw("google", Some(bearer)).await;
    assert_eq!(authorize.err(), Some(AppError::ReauthenticationRequired));
}

#[tokio::test]
async fn every_kind_of_login_starts_the_clock_and_a_password_login_can_delete_at_once() {
    let (world, registered) = World::signed_up("ada@example.com").await;
    assert_eq!(
        world.access_of(&registered).auth_time,
        Some(world.clock.now())
    );
    world.clock.advance(SIX_MINUTES);
    let login = world
        .password_signed_in("ada@example.com", "correct horse")
        .await;
    assert_eq!(world.access_of(&login).auth_time, Some(world.clock.now()));

    world.clock.advance(SIX_MINUTES);
    world.google.answer_id_token(Ok(identity(
        ProviderKey::GOOGLE,
        "g-1",
        Some("grace@example.com"),
        true,
    )));
    let native = world
        .id_token_sign_in(native_command(&world))
        .await
        .unwrap();
    assert_eq!(world.access_of(&native).auth_time, Some(world.clock.now()));

    world
        .delete_account(world.access_of(&login))
        .await
        .expect_err("the password login is twelve minutes old now");
    let fresh = world
        .password_signed_in("ada@example.com", "correct horse")
        .await;
    world.delete_account(world.access_of(&fresh)).await.unwrap();
}

#[tokio::test]
async fn the_window_is_the_configured_one() {
    let world = World::with_policy(AuthPolicy {
        reauthentication: Duration::hours(1),
        ..AuthPolicy::default()
    });
    let login = world.login_with(ada_on_github()).await;
    world.clock.advance(SIX_MINUTES);
    let refreshed = world.refreshed(&login).await;
    world
        .delete_account(world.access_of(&refreshed))
        .await
        .unwrap();
}

#[tokio::test]
async fn connecting_from_a_session_whose_login_is_old_is_refused_and_spends_nothing() {
    let (world, login) = World::signed_up("ada@example.com").await;
    let ada = login.user.id;
    // The connect flow started while the login was fresh...
    let state = world.started_connect(ada, ada_on_github()).await;
    // ...and comes back with a token refreshed six minutes after the login.
    world.clock.advance(SIX_MINUTES);
    let stale = world.access_of(&world.refreshed(&login).await);

    let refused = world
        .service
        .connect_raw(stale, "github", CODE, &state)
        .await;
    assert_eq!(refused, Err(AppError::ReauthenticationRequired));
    assert_eq!(world.users.link_count(), 0);
    assert!(!world.is_spent(&state), "the state value is still usable");

    // After logging in again the same flow completes.
    let again = world
        .password_signed_in("ada@example.com", "correct horse")
        .await;
    let linked = world
        .service
        .connect_raw(world.access_of(&again), "github", CODE, &state)
        .await
        .unwrap();
    assert_eq!(linked.user_id, ada);
}

#[tokio::test]
async fn a_native_connect_from_a_session_whose_login_is_old_is_refused_before_the_id_token_is_checked()
 {
    let (world, login) = World::signed_up("ada@example.com").await;
    world.clock.advance(SIX_MINUTES);
    let stale = world.access_of(&world.refreshed(&login).await);
    world.google.answer_id_token(Ok(identity(
        ProviderKey::GOOGLE,
        "g-1",
        Some("thief@example.com"),
        true,
    )));

    let refused = world.id_token_connect(stale, native_command(&world)).await;
    assert_eq!(refused, Err(AppError::ReauthenticationRequired));
    assert_eq!(world.users.link_count(), 0);
    assert!(
        world.google.id_tokens_received().is_empty(),
        "the id_token was never presented to the adapter"
    );
}

#[tokio::test]
async fn authorize_with_the_bearer_of_an_old_login_is_refused_before_going_to_the_provider() {
    let (world, login) = World::signed_up("ada@example.com").await;
    world.clock.advance(SIX_MINUTES);
    let stale = world.refreshed(&login).await;

    let refused = world
        .service
        .authorize_raw("github", Some(stale.access_token.value.expose()))
        .await;
    assert_eq!(refused, Err(AppError::ReauthenticationRequired));

    // A fresh login's bearer starts the connect flow.
    let bearer = world.bearer_for(login.user.id).await;
    let url = world
        .service
        .authorize_raw("github", Some(&bearer))
        .await
        .unwrap();
    assert!(world.sealer.peek(&state_in(&url)).is_some());
}

#[tokio::test]
async fn a_token_that_does_not_say_when_its_login_was_never_counts_as_recent() {
    let (world, login) = World::signed_up("ada@example.com").await;
    let mut access = world.access_of(&login);
    access.auth_time = None;
    assert_eq!(
        world.delete_account(access).await,
        Err(AppError::ReauthenticationRequired)
    );
}
