//! Failure injection with mockall: a port that fails becomes the right `AppError`, and a
//! failure half-way leaves nothing half-written.

use crate::world::{CODE, RawInput, World, github_login};
use social_login_app::{AppError, Ports, Registration};
use social_login_domain::{SecretText, UserId};
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
    world.answers(github_login("gh-1", "ada@example.com"));
    let mut states = MockStateStore::new();
    states
        .expect_spend()
        .times(1)
        .returning(|_, _| Err(StateStoreError("SET NX timed out".into())));
    let service = world.service_with(Ports {
        states: Arc::new(states),
        ..world.ports()
    });
    let state = world.login_state("github").await;
    let result = service.callback_raw("github", CODE, &state, None).await;
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
        .returning(|| Err(StateStoreError("connection refused".into())));
    let service = world.service_with(Ports {
        states: Arc::new(states),
        ..world.ports()
    });
    assert!(service.authorize_raw("github", None).await.is_ok());
}

#[tokio::test]
async fn a_sealer_that_cannot_seal_is_an_internal_error() {
    let world = World::new();
    let mut sealer = MockStateSealer::new();
    sealer.expect_seal().returning(|_| Err(CipherError::Seal));
    let service = world.service_with(Ports {
        state_sealer: Arc::new(sealer),
        ..world.ports()
    });
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
    let service = world.service_with(Ports {
        states: Arc::new(states),
        ..world.ports()
    });
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
    let service = world.service_with(Ports {
        users: Arc::new(users),
        ..world.ports()
    });
    world.answers(github_login("gh-1", "ada@example.com"));
    let state = world.login_state("github").await;
    assert_eq!(
        service.callback_raw("github", CODE, &state, None).await,
        Err(AppError::Unavailable("connection refused".into()))
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
    let service = world.service_with(Ports {
        users: Arc::new(users),
        ..world.ports()
    });
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
        .returning(|_, _, _, _, _| Err(RotateError::Repository(unavailable())));
    tokens
        .expect_revoke_refresh()
        .returning(|_, _| Err(unavailable()));
    let service = world.service_with(Ports {
        refresh_tokens: Arc::new(tokens),
        ..world.ports()
    });
    assert!(matches!(
        service
            .refresh("refresh:anything", &social_login_domain::Origin::default())
            .await,
        Err(AppError::Unavailable(_))
    ));
    assert!(matches!(
        service
            .logout("refresh:anything", &social_login_domain::Origin::default())
            .await,
        Err(AppError::Unavailable(_))
    ));
}

#[tokio::test]
async fn a_refresh_for_a_user_that_no_longer_exists_is_invalid_credentials() {
    let world = World::new();
    let mut tokens = MockRefreshTokenRepository::new();
    tokens.expect_rotate_refresh().returning(|_, _, _, _, _| {
        Ok(Rotated {
            user: UserId::new(),
            auth_time: time::OffsetDateTime::UNIX_EPOCH,
        })
    });
    let service = world.service_with(Ports {
        refresh_tokens: Arc::new(tokens),
        ..world.ports()
    });
    assert_eq!(
        service
            .refresh(
                "refresh:of-a-deleted-user",
                &social_login_domain::Origin::default()
            )
            .await,
        Err(AppError::InvalidCredentials)
    );
}

#[tokio::test]
async fn a_cipher_that_cannot_seal_is_internal_and_nothing_is_written() {
    let world = World::new();
    let mut cipher = MockTokenCipher::new();
    cipher.expect_seal().returning(|_| Err(CipherError::Seal));
    let service = world.service_with(Ports {
        cipher: Arc::new(cipher),
        ..world.ports()
    });
    world.answers(github_login("gh-1", "ada@example.com"));
    let state = world.login_state("github").await;
    assert!(matches!(
        service.callback_raw("github", CODE, &state, None).await,
        Err(AppError::Internal(_))
    ));
    assert_eq!(world.users.user_count(), 0);
    assert_eq!(world.users.link_count(), 0);
}

#[tokio::test]
async fn session_tokens_that_cannot_be_issued_are_internal() {
    let world = World::new();
    let mut sessions = MockSessionTokens::new();
    sessions
        .expect_issue_access()
        .returning(|_, _, _| Err(SessionTokenError("signing key unusable".into())));
    let fakes = social_login_testing::FakeSessions;
    sessions
        .expect_new_refresh()
        .returning(move || fakes.new_refresh());
    sessions
        .expect_refresh_ttl()
        .returning(|| time::Duration::days(30));
    let service = world.service_with(Ports {
        sessions: Arc::new(sessions),
        ..world.ports()
    });
    let result = service
        .register(
            Registration {
                email: "ada@example.com".into(),
                password: SecretText::new("correct horse"),
                full_name: None,
            },
            &social_login_domain::Origin::default(),
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
    let service = world.service_with(Ports {
        hasher: Arc::new(hasher),
        ..world.ports()
    });
    let registration = Registration {
        email: "ada@example.com".into(),
        password: SecretText::new("correct horse"),
        full_name: None,
    };
    assert!(matches!(
        service
            .register(registration, &social_login_domain::Origin::default())
            .await,
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
    let mut cipher = MockTokenCipher::new();
    cipher.expect_seal().returning(|_| Err(CipherError::Seal));
    let service = world.service_with(Ports {
        cipher: Arc::new(cipher),
        ..world.ports()
    });
    world.answers(github_login("gh-1", "ada@example.com"));
    let state = world.login_state("github").await;
    let error = service
        .callback_raw("github", CODE, &state, None)
        .await
        .unwrap_err();
    for shown in [error.to_string(), format!("{error:?}")] {
        assert!(!shown.contains("gh-1-access"), "{shown}");
        assert!(!shown.contains(CODE), "{shown}");
    }
}
