//! The per-account throttle of password logins (docs/decisions.md): five attempts per email
//! in a window of 15 minutes from the first; then 429 until it closes, even with the right
//! password and without hashing; a success clears the count; unknown emails count alike.

use crate::world::{RawInput, World};
use social_login_app::{AppError, AuthService, LoginResult};
use social_login_ports::MockPasswordHasher;
use std::sync::Arc;
use time::Duration;

const RIGHT: &str = "correct horse battery";

async fn login(
    service: &AuthService,
    email: &str,
    password: &str,
) -> Result<LoginResult, AppError> {
    service.password_login_raw(email, password).await
}

/// `n` wrong passwords for `email`, each refused as a wrong password.
async fn fail(world: &World, email: &str, n: usize) {
    for _ in 0..n {
        let refused = login(&world.service, email, "wrong password").await;
        assert_eq!(refused.err(), Some(AppError::InvalidCredentials));
    }
}

fn limited(seconds: u64) -> Option<AppError> {
    Some(AppError::RateLimited {
        retry_after_seconds: seconds,
    })
}

/// A hasher that fails the test if it is asked anything.
fn untouchable_hasher() -> MockPasswordHasher {
    let mut hasher = MockPasswordHasher::new();
    hasher.expect_verify().never();
    hasher.expect_hash().never();
    hasher
}

#[tokio::test]
async fn after_five_wrong_passwords_even_the_right_one_is_refused_without_hashing() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    fail(&world, "ada@example.com", 5).await;
    let service = world.service_swapping(|ports| ports.hasher = Arc::new(untouchable_hasher()));
    let refused = login(&service, "ada@example.com", RIGHT).await;
    assert_eq!(refused.err(), limited(900));
}

#[tokio::test]
async fn the_lock_lasts_until_the_window_closes_and_no_longer() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    fail(&world, "ada@example.com", 5).await;
    world.clock.advance(Duration::minutes(10));
    let refused = login(&world.service, "ada@example.com", RIGHT).await;
    assert_eq!(refused.err(), limited(300), "Retry-After is the time left");
    // Attempts while locked do not extend it.
    world.clock.advance(Duration::minutes(5));
    assert!(
        login(&world.service, "ada@example.com", RIGHT)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_success_clears_the_count() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    fail(&world, "ada@example.com", 4).await;
    assert!(
        login(&world.service, "ada@example.com", RIGHT)
            .await
            .is_ok()
    );
    fail(&world, "ada@example.com", 5).await;
    let refused = login(&world.service, "ada@example.com", "wrong password").await;
    assert_eq!(refused.err(), limited(900));
}

#[tokio::test]
async fn an_unknown_email_is_throttled_exactly_like_a_known_one() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    for email in ["ada@example.com", "nobody@example.com", "not an email"] {
        fail(&world, email, 5).await;
        let refused = login(&world.service, email, RIGHT).await;
        assert_eq!(refused.err(), limited(900), "{email}");
    }
}

#[tokio::test]
async fn every_spelling_of_an_email_counts_against_it_and_other_emails_are_untouched() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    world.register("bob@example.com", RIGHT).await;
    for email in [
        "Ada@Example.com",
        "ADA@EXAMPLE.COM",
        " ada@example.com",
        "ada@example.com",
        "aDa@example.com",
    ] {
        fail(&world, email, 1).await;
    }
    let refused = login(&world.service, "ada@example.com", RIGHT).await;
    assert_eq!(refused.err(), limited(900));
    assert!(
        login(&world.service, "bob@example.com", RIGHT)
            .await
            .is_ok()
    );
}
