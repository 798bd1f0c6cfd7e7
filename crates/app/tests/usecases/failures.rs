//! Failure injection with mockall: a port that fails becomes the right `AppError`, and a
//! failure half-way leaves nothing half-written.

use crate::world::{CODE, RawInput, World, registration};
use social_login_app::{AppError, AuthService};
use social_login_domain::{Origin, UserId};
use social_login_ports::{
    CipherError, HashError, MockPasswordHasher, MockRefreshTokenRepository, MockSessionTokens,
    MockStateSealer, MockStateStore, MockTokenCipher, MockUserRepository, RemoveLinkError,
    RepositoryError, RotateError, Rotated, SessionTokenError, SessionTokens, SignInError,
    StateStoreError,
};
use std::sync::Arc;

fn unavailable() -> RepositoryError {
    RepositoryError::Unavailable("connection refused".into())
}

fn internal() -> RepositoryError {
    RepositoryError::Internal("syntax error at or near".into())
}

#[tokio::test]
async fn a_state_store_that_fails_on_spend_is_unavailable() {
    let world = World::new();
    let mut states = MockStateStore::new();
    states
        .expect_spend()
        .times(1)
        .returning(|_, _| Err(StateStoreError::unreachable("SET NX timed out")));
    let service = world.service_on_states(states);
    let result = world.github_login_on(&service).await;
    assert!(
        matches!(result, Err(AppError::Unavailable(_))),
        "{result:?}"
    );
    assert!(world.github.received().is_empty());
    assert_eq!(world.users.user_count(), 0);
}

#[tokio::test]
async fn authorize_works_while_the_state_store_is_down() {
    let world = World::new();
    let mut states = MockStateStore::new();
    states.expect_spend().never();
    states
        .expect_ping()
        .returning(|| Err(StateStoreError::unreachable("connection refused")));
    let service = world.service_on_states(states);
    assert!(service.authorize_raw("github", None).await.is_ok());
}

#[tokio::test]
async fn a_sealer_that_cannot_seal_is_an_internal_error() {
    let world = World::new();
    let mut sealer = MockStateSealer::new();
    sealer.expect_seal().returning(|_| Err(CipherError::Seal));
    let service = world.service_swapping(|ports| ports.state_sealer = Arc::new(sealer));
    assert!(matches!(
        service.authorize_raw("github", None).await,
        Err(AppError::Internal(_))
    ));
}

#[tokio::test]
async fn a_value_the_sealer_cannot_open_never_reaches_the_store() {
    let world = World::new();
    let mut states = MockStateStore::new();
    states.expect_spend().never();
    let service = world.service_on_states(states);
    assert_eq!(
        service
            .callback_raw("github", CODE, &"A".repeat(200), None)
            .await,
        Err(AppError::StateMismatch(
            social_login_domain::StateMismatch::Unknown
        ))
    );
}

#[tokio::test]
async fn an_unavailable_user_repository_is_unavailable_and_starts_no_session() {
    let world = World::new();
    let mut users = MockUserRepository::new();
    users
        .expect_sign_in_with_provider()
        .times(1)
        .returning(|_| Err(SignInError::Repository(unavailable())));
    let service = world.service_swapping(|ports| ports.users = Arc::new(users));
    assert_eq!(
        world.github_login_on(&service).await,
        Err(AppError::from(unavailable()))
    );
    assert_eq!(world.refresh_tokens.stored_count(), 0);
}

#[tokio::test]
async fn an_internal_repository_failure_is_internal() {
    let world = World::new();
    let mut users = MockUserRepository::new();
    users.expect_list_links().returning(|_| Err(internal()));
    users
        .expect_remove_link()
        .returning(|_| Err(RemoveLinkError::Repository(internal())));
    let service = world.service_swapping(|ports| ports.users = Arc::new(users));
    let caller = UserId::new();
    assert!(matches!(
        service.accounts(caller).await,
        Err(AppError::Internal(_))
    ));
    assert!(matches!(
        service.disconnect_raw(caller, "github").await,
        Err(AppError::Internal(_))
    ));
}

#[tokio::test]
async fn an_unavailable_refresh_token_store_is_unavailable() {
    let world = World::new();
    let mut tokens = MockRefreshTokenRepository::new();
    tokens
        .expect_rotate_refresh()
        .returning(|_| Err(RotateError::Repository(unavailable())));
    tokens
        .expect_revoke_refresh()
        .returning(|_| Err(unavailable()));
    let service = world.service_swapping(|ports| ports.refresh_tokens = Arc::new(tokens));
    assert!(matches!(
        service
            .refresh("refresh:anything", &Origin::default())
            .await,
        Err(AppError::Unavailable(_))
    ));
    assert!(matches!(
        service.logout("refresh:anything", &Origin::default()).await,
        Err(AppError::Unavailable(_))
    ));
}

#[tokio::test]
async fn a_refresh_for_a_user_that_no_longer_exists_is_invalid_credentials() {
    let world = World::new();
    let mut tokens = MockRefreshTokenRepository::new();
    tokens.expect_rotate_refresh().returning(|_| {
        Ok(Rotated {
            user: UserId::new(),
            session: social_login_domain::FamilyId::new(),
            auth_time: time::OffsetDateTime::UNIX_EPOCH,
            expires_at: time::OffsetDateTime::UNIX_EPOCH + time::Duration::days(1),
        })
    });
    let service = world.service_swapping(|ports| ports.refresh_tokens = Arc::new(tokens));
    assert_eq!(
        service
            .refresh("refresh:of-a-deleted-user", &Origin::default())
            .await,
        Err(AppError::InvalidCredentials)
    );
}

/// A service whose token cipher cannot seal.
fn service_without_sealing(world: &World) -> AuthService {
    let mut cipher = MockTokenCipher::new();
    cipher.expect_seal().returning(|_| Err(CipherError::Seal));
    world.service_swapping(|ports| ports.cipher = Arc::new(cipher))
}

#[tokio::test]
async fn a_cipher_that_cannot_seal_is_internal_and_nothing_is_written() {
    let world = World::new();
    let service = service_without_sealing(&world);
    assert!(matches!(
        world.github_login_on(&service).await,
        Err(AppError::Internal(_))
    ));
    world.assert_nothing_stored("a login whose tokens could not be sealed");
}

#[tokio::test]
async fn session_tokens_that_cannot_be_issued_are_internal() {
    let world = World::new();
    let mut sessions = MockSessionTokens::new();
    sessions
        .expect_issue_access()
        .returning(|_, _| Err(SessionTokenError("signing key unusable".into())));
    let fakes = social_login_testing::FakeSessions;
    sessions
        .expect_new_refresh()
        .returning(move || fakes.new_refresh());
    sessions
        .expect_refresh_value()
        .returning(|issued, issue| social_login_testing::FakeSessions.refresh_value(issued, issue));
    sessions
        .expect_refresh_ttl()
        .returning(|| time::Duration::days(30));
    let service = world.service_swapping(|ports| ports.sessions = Arc::new(sessions));
    let result = service
        .register(
            registration("ada@example.com", "correct horse"),
            &Origin::default(),
        )
        .await;
    assert!(matches!(result, Err(AppError::Internal(_))), "{result:?}");
}

#[tokio::test]
async fn a_failing_hasher_is_internal() {
    let world = World::new();
    let mut hasher = MockPasswordHasher::new();
    hasher
        .expect_hash()
        .returning(|_| Err(HashError::Failed("out of memory".into())));
    hasher
        .expect_verify()
        .returning(|_, _| Err(HashError::Failed("out of memory".into())));
    let service = world.service_swapping(|ports| ports.hasher = Arc::new(hasher));
    let registration = registration("ada@example.com", "correct horse");
    assert!(matches!(
        service.register(registration, &Origin::default()).await,
        Err(AppError::Internal(_))
    ));
    assert_eq!(world.users.user_count(), 0);
    assert!(matches!(
        service
            .password_login_raw("ada@example.com", "correct horse")
            .await,
        Err(AppError::Internal(_))
    ));
}

#[tokio::test]
async fn no_error_message_carries_a_provider_token_or_the_code() {
    let world = World::new();
    let service = service_without_sealing(&world);
    let error = world.github_login_on(&service).await.unwrap_err();
    for shown in [error.to_string(), format!("{error:?}")] {
        assert!(!shown.contains("gh-1-access"), "{shown}");
        assert!(!shown.contains(CODE), "{shown}");
    }
}

#[tokio::test]
async fn keys_are_still_checked_while_the_state_store_that_counts_wrong_ones_is_down() {
    let world = World::new();
    let mut states = MockStateStore::new();
    let down = || StateStoreError::unreachable("connection refused");
    states
        .expect_peek_attempts()
        .times(2)
        .returning(move |_| Err(down()));
    states
        .expect_count_attempt()
        .times(1)
        .returning(move |_, _| Err(down()));
    let service = world.service_on_states(states);
    let origin = Origin::default();
    // Support can still act during the outage; a wrong key is still no key.
    assert_eq!(
        service.checked_key(&origin, || Some("ops")).await,
        Ok(Some("ops"))
    );
    assert_eq!(
        service.checked_key(&origin, || None::<&str>).await,
        Ok(None)
    );
}

#[tokio::test]
async fn a_state_store_that_answers_but_cannot_count_keeps_refusing_keys() {
    let world = World::new();
    let mut states = MockStateStore::new();
    states
        .expect_peek_attempts()
        .returning(|_| Err(StateStoreError::refused("in-process state store is full")));
    let service = world.service_on_states(states);
    // Filling the store must not switch the throttle off.
    let checked = service
        .checked_key(&Origin::default(), || Some("ops"))
        .await;
    assert!(
        matches!(checked, Err(AppError::Unavailable(_))),
        "{checked:?}"
    );
}
