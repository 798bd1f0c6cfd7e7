//! A provider that cannot serve sign-ins yet (a provider from configuration whose discovery
//! has not succeeded): its flows answer 503 before any state value is minted or spent, and
//! what needs no sign-in (accounts, disconnect) keeps working.

use crate::world::*;
use social_login_app::{AppError, AppResult};
use social_login_domain::{Origin, ProviderKey, UserId};
use social_login_ports::ProviderError;

fn not_ready() -> Result<(), ProviderError> {
    Err(ProviderError::Unavailable(
        "discovery has not succeeded".into(),
    ))
}

fn is_unavailable<T: std::fmt::Debug>(result: &AppResult<T>) -> bool {
    matches!(result, Err(AppError::Unavailable(_)))
}

/// A world with a password user (who may disconnect a last link).
async fn with_user() -> (World, UserId) {
    let world = World::new();
    let registered = world.register("ada@example.com", "correct horse battery");
    let user = registered.await.user.id;
    (world, user)
}

#[tokio::test]
async fn authorize_of_a_provider_that_is_not_ready_is_unavailable() {
    let world = World::new();
    world.github.set_ready(not_ready());
    let result = world.service.authorize_raw("github", None).await;
    assert!(is_unavailable(&result), "{result:?}");
    world.github.set_ready(Ok(()));
    assert!(world.service.authorize_raw("github", None).await.is_ok());
}

#[tokio::test]
async fn a_callback_while_the_provider_is_not_ready_spends_nothing_and_can_be_retried() {
    let world = World::new();
    let login = ada_on_github();
    world.github.answer(Ok(login));
    let state = world.login_state("github").await;
    world.github.set_ready(not_ready());
    let callback = || world.callback("github", &state);
    let result = callback().await;
    assert!(is_unavailable(&result), "{result:?}");
    assert!(!world.is_spent(&state), "the state value is still unspent");
    assert!(world.github.received().is_empty());
    world.github.set_ready(Ok(()));
    assert!(callback().await.unwrap().is_new_user);
}

#[tokio::test]
async fn a_connect_while_the_provider_is_not_ready_spends_nothing() {
    let (world, user) = with_user().await;
    let state = world.connect_state("github", user).await;
    world.github.set_ready(not_ready());
    let caller = world.fresh_login(user).await;
    let connect = world.service.connect_raw(caller, "github", CODE, &state);
    let result = connect.await;
    assert!(is_unavailable(&result), "{result:?}");
    assert!(!world.is_spent(&state));
}

#[tokio::test]
async fn a_native_sign_in_while_the_provider_is_not_ready_is_unavailable() {
    let world = World::new();
    let ada = identity(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    world.google.answer_id_token(Ok(ada));
    world.google.set_ready(not_ready());
    let token = "eyJhbGciOiJSUzI1NiJ9.e30.sig";
    let command = world.service.id_token_command(
        world.service.enabled_provider("google").unwrap(),
        token,
        Some("n"),
        None,
    );
    let origin = Origin::default();
    let signed_in = world.service.id_token_sign_in(command.unwrap(), &origin);
    let result = signed_in.await;
    assert!(is_unavailable(&result), "{result:?}");
    assert!(world.google.id_tokens_received().is_empty());
}

#[tokio::test]
async fn accounts_and_disconnect_work_while_the_provider_is_not_ready() {
    let (world, user) = with_user().await;
    let linked = world.connect_as(user, ada_on_github());
    linked.await.unwrap();
    world.github.set_ready(not_ready());
    assert_eq!(world.service.accounts(user).await.unwrap().len(), 1);
    assert_eq!(world.service.disconnect_raw(user, "github").await, Ok(()));
    assert_eq!(world.users.link_count(), 0);
}
