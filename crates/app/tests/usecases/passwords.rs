//! POST /auth/register and POST /auth/login (docs/api.md#register).

use crate::world::{PASSWORD, RawInput, World, ada_on_github};
use social_login_app::{AppError, AppResult, Registration};
use social_login_domain::{PasswordHash, SecretText};
use social_login_ports::{Clock, MockPasswordHasher};
use std::sync::Arc;

fn registration(email: &str, password: &str) -> Registration {
    Registration {
        email: email.into(),
        password: SecretText::new(password),
        full_name: Some("  Ada Lovelace ".into()),
    }
}

fn is_validation_of(result: AppResult<social_login_app::LoginResult>, field: &str) -> bool {
    matches!(result, Err(AppError::Validation(message)) if message.starts_with(field))
}

#[tokio::test]
async fn register_creates_a_password_user_with_an_unverified_email() {
    let world = World::new();
    let result = world
        .register_with(registration("Ada@Example.com", "correct horse"))
        .await
        .unwrap();
    assert!(result.is_new_user);
    let user = &result.user;
    assert_eq!(user.email.as_ref().unwrap().as_str(), "Ada@Example.com");
    assert!(!user.email_verified);
    assert!(user.has_password());
    assert_ne!(
        user.password_hash.as_ref().unwrap().as_str(),
        "correct horse"
    );
    assert_eq!(user.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(user.created_at, world.clock.now());
    assert_eq!(world.service.me(user.id).await.as_ref(), Ok(user));
    assert_eq!(
        world
            .service
            .authenticate(result.access_token.value.expose()),
        Some(user.id)
    );
}

#[tokio::test]
async fn a_blank_full_name_is_stored_as_none() {
    let world = World::new();
    let mut blank = registration("ada@example.com", "correct horse");
    blank.full_name = Some("   ".into());
    let result = world.register_with(blank).await.unwrap();
    assert_eq!(result.user.full_name, None);
}

#[tokio::test]
async fn an_over_long_full_name_is_a_validation_error() {
    let world = World::new();
    let mut long = registration("ada@example.com", "correct horse");
    long.full_name = Some("é".repeat(201));
    assert!(is_validation_of(
        world.register_with(long).await,
        "full_name"
    ));
    let mut longest = registration("ada@example.com", "correct horse");
    longest.full_name = Some("é".repeat(200));
    assert!(world.register_with(longest).await.is_ok());
}

#[tokio::test]
async fn registering_an_email_twice_ignoring_case_is_refused() {
    let world = World::new();
    world.register("ada@example.com", "correct horse").await;
    assert_eq!(
        world
            .register_with(registration("ADA@Example.COM", "another horse"))
            .await,
        Err(AppError::EmailAlreadyRegistered)
    );
    assert_eq!(world.users.user_count(), 1);
}

#[tokio::test]
async fn registering_the_email_of_a_provider_user_is_refused() {
    let world = World::new();
    world.login_with(ada_on_github()).await;
    assert_eq!(
        world
            .register_with(registration("Ada@example.com", "correct horse"))
            .await,
        Err(AppError::EmailAlreadyRegistered)
    );
}

#[tokio::test]
async fn a_weak_password_is_a_validation_error() {
    let world = World::new();
    for weak in ["", "1234567", &"x".repeat(129)] {
        assert!(
            is_validation_of(
                world
                    .register_with(registration("ada@example.com", weak))
                    .await,
                "password"
            ),
            "{} characters",
            weak.len()
        );
    }
    assert_eq!(world.users.user_count(), 0);
}

#[tokio::test]
async fn a_malformed_email_is_a_validation_error() {
    let world = World::new();
    for bad in ["", "ada", "ada@", "@example.com", "a da@example.com"] {
        assert!(
            is_validation_of(
                world
                    .register_with(registration(bad, "correct horse"))
                    .await,
                "email"
            ),
            "{bad:?}"
        );
    }
    assert_eq!(world.users.user_count(), 0);
}

#[tokio::test]
async fn login_with_the_right_password_signs_the_user_in() {
    let (world, registered) = World::signed_up("ada@example.com").await;
    let result = world.password_signed_in("ADA@example.com", PASSWORD).await;
    assert!(!result.is_new_user);
    assert_eq!(result.user, registered.user);
    assert_ne!(result.refresh_token, registered.refresh_token);
}

#[tokio::test]
async fn login_with_a_wrong_password_is_invalid_credentials() {
    let world = World::new();
    world.register("ada@example.com", "correct horse").await;
    assert_eq!(
        world.password_login("ada@example.com", "wrong horse").await,
        Err(AppError::InvalidCredentials)
    );
}

/// A hasher that must be asked exactly once, with no hash, and says no.
fn hasher_expecting_no_hash() -> MockPasswordHasher {
    let mut hasher = MockPasswordHasher::new();
    hasher
        .expect_verify()
        .withf(|_, hash: &Option<PasswordHash>| hash.is_none())
        .times(1)
        .returning(|_, _| Ok(false));
    hasher
}

#[tokio::test]
async fn a_login_that_no_password_matches_still_runs_the_hasher_once_and_fails() {
    let world = World::new();
    world.login_with(ada_on_github()).await;
    for (case, email, password) in [
        ("an unknown email", "nobody@example.com", "correct horse"),
        (
            "a provider user's email",
            "ada@example.com",
            "anything at all",
        ),
    ] {
        let hasher = Arc::new(hasher_expecting_no_hash());
        let service = world.service_swapping(|ports| ports.hasher = hasher);
        assert_eq!(
            service.password_login_raw(email, password).await,
            Err(AppError::InvalidCredentials),
            "{case}"
        );
    }
}

#[tokio::test]
async fn a_failed_login_starts_no_session() {
    let world = World::new();
    world.register("ada@example.com", "correct horse").await;
    let before = world.refresh_tokens.stored_count();
    let _ = world.password_login("ada@example.com", "wrong horse").await;
    assert_eq!(world.refresh_tokens.stored_count(), before);
}
