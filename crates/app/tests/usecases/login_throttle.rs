//! The password-login throttle (docs/api.md#password-login-throttle): five failures for one
//! account from one client in 15 minutes, then 429 for that client and account until the
//! window closes, even with the right password and without hashing, while every other client
//! still logs in; past the account's failures from anywhere, every attempt is slowed, never
//! refused; a success clears the client's count; unknown emails count alike; text that is no
//! email is refused at once and counted nowhere. Hits are recorded once per window.

use crate::world::World;
use social_login_app::{AppError, AppResult, AuthPolicy, AuthService, LoginResult, PacedLogin};
use social_login_domain::throttle::SLOWED_BY;
use social_login_domain::{AuditEventType, Origin, SecretText, UserId};
use social_login_ports::MockPasswordHasher;
use std::sync::Arc;
use time::Duration;

const RIGHT: &str = "correct horse battery";
const ATTACKER: &str = "198.51.100.66";
const OWNER: &str = "203.0.113.7";

fn from(ip: &str) -> Origin {
    Origin::new(Some(ip.parse().unwrap()), None, None)
}

async fn paced(service: &AuthService, email: &str, password: &str, ip: &str) -> PacedLogin {
    service
        .password_login(email, SecretText::new(password), &from(ip))
        .await
}

async fn login(
    service: &AuthService,
    email: &str,
    password: &str,
    ip: &str,
) -> AppResult<LoginResult> {
    paced(service, email, password, ip).await.outcome
}

/// `n` wrong passwords for `email` from `ip`, each refused as a wrong password.
async fn fail(world: &World, email: &str, ip: &str, n: usize) {
    for _ in 0..n {
        let refused = login(&world.service, email, "wrong password", ip).await;
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

async fn throttle_events(world: &World, user: UserId) -> usize {
    let events = world.service.events(user).await.unwrap();
    events
        .iter()
        .filter(|event| event.kind == AuditEventType::UserLoginThrottled)
        .count()
}

#[tokio::test]
async fn after_five_failures_that_client_is_refused_without_hashing_and_others_log_in() {
    let world = World::new();
    let ada = world.register("ada@example.com", RIGHT).await.user.id;
    fail(&world, "ada@example.com", ATTACKER, 5).await;
    let service = world.service_swapping(|ports| ports.hasher = Arc::new(untouchable_hasher()));
    let refused = login(&service, "ada@example.com", RIGHT, ATTACKER).await;
    assert_eq!(refused.err(), limited(900));

    let owner = paced(&world.service, "ada@example.com", RIGHT, OWNER).await;
    assert_eq!(owner.outcome.unwrap().user.id, ada, "not locked out");
    assert_eq!(owner.delay, Duration::ZERO);
    assert_eq!(throttle_events(&world, ada).await, 1);
}

#[tokio::test]
async fn an_ipv6_client_is_one_client_across_its_network() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    for host in 1..=5 {
        let ip = format!("2001:db8:1:2::{host}");
        fail(&world, "ada@example.com", &ip, 1).await;
    }
    let refused = login(&world.service, "ada@example.com", RIGHT, "2001:db8:1:2::99").await;
    assert_eq!(refused.err(), limited(900));
    assert!(
        login(&world.service, "ada@example.com", RIGHT, "2001:db8:1:3::1")
            .await
            .is_ok(),
        "the next /64 is another client"
    );
}

#[tokio::test]
async fn the_refusal_lasts_until_the_window_closes_and_no_longer() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    fail(&world, "ada@example.com", ATTACKER, 5).await;
    world.clock.advance(Duration::minutes(10));
    let refused = login(&world.service, "ada@example.com", RIGHT, ATTACKER).await;
    assert_eq!(refused.err(), limited(300), "Retry-After is the time left");
    // Attempts while refused do not extend it.
    world.clock.advance(Duration::minutes(5));
    let after = login(&world.service, "ada@example.com", RIGHT, ATTACKER).await;
    assert!(after.is_ok());
}

#[tokio::test]
async fn a_success_clears_the_clients_count() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    fail(&world, "ada@example.com", OWNER, 4).await;
    assert!(
        login(&world.service, "ada@example.com", RIGHT, OWNER)
            .await
            .is_ok()
    );
    fail(&world, "ada@example.com", OWNER, 5).await;
    let refused = login(&world.service, "ada@example.com", "wrong password", OWNER).await;
    assert_eq!(refused.err(), limited(900));
}

#[tokio::test]
async fn past_the_accounts_failures_every_attempt_is_slowed_and_the_right_password_logs_in() {
    let world = World::with_policy(AuthPolicy {
        password_attempts_per_account: 12,
        ..AuthPolicy::default()
    });
    let ada = world.register("ada@example.com", RIGHT).await.user.id;
    // Twelve failures from three clients, none refused.
    for client in ["198.51.100.1", "198.51.100.2", "198.51.100.3"] {
        fail(&world, "ada@example.com", client, 4).await;
    }
    assert_eq!(throttle_events(&world, ada).await, 1, "the limit reached");
    let wrong = paced(&world.service, "ada@example.com", "wrong", "198.51.100.4").await;
    assert_eq!(
        (wrong.outcome.err(), wrong.delay),
        (Some(AppError::InvalidCredentials), SLOWED_BY)
    );
    let owner = paced(&world.service, "ada@example.com", RIGHT, OWNER).await;
    assert_eq!(owner.delay, SLOWED_BY);
    assert_eq!(owner.outcome.unwrap().user.id, ada, "slowed, never refused");
    assert_eq!(throttle_events(&world, ada).await, 1, "recorded once");

    // The window closes and the account answers at full speed again.
    world.clock.advance(Duration::minutes(15));
    let later = paced(&world.service, "ada@example.com", RIGHT, OWNER).await;
    assert_eq!(later.delay, Duration::ZERO);
}

#[tokio::test]
async fn an_unknown_email_is_throttled_exactly_like_a_known_one() {
    let world = World::new();
    world.register("ada@example.com", RIGHT).await;
    for email in ["ada@example.com", "nobody@example.com"] {
        fail(&world, email, ATTACKER, 5).await;
        let refused = login(&world.service, email, RIGHT, ATTACKER).await;
        assert_eq!(refused.err(), limited(900), "{email}");
    }
}

#[tokio::test]
async fn text_that_is_no_email_is_refused_at_once_and_counted_nowhere() {
    let world = World::new();
    let service = world.service_swapping(|ports| ports.hasher = Arc::new(untouchable_hasher()));
    for _ in 0..20 {
        let refused = login(&service, "not an email", RIGHT, ATTACKER).await;
        assert_eq!(refused.err(), Some(AppError::InvalidCredentials));
    }
    assert_eq!(world.states.counted_keys(), 0);
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
        fail(&world, email, ATTACKER, 1).await;
    }
    let refused = login(&world.service, "ada@example.com", RIGHT, ATTACKER).await;
    assert_eq!(refused.err(), limited(900));
    let bob = login(&world.service, "bob@example.com", RIGHT, ATTACKER).await;
    assert!(bob.is_ok());
}
