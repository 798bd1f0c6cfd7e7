//! Losing a race to a concurrent request: the repository reports it, the use case decides
//! again or reports the conflict. (How the repositories settle each race is tested on them:
//! the fakes in `callback_linking`, SQLite and PostgreSQL in the persistence suite, several
//! processes in the server's cluster tests.)

use crate::world::{CODE, RawInput, World, ada_on_github, registration};
use social_login_app::AppError;
use social_login_domain::{Origin, User};
use social_login_ports::{
    AddLinkError, CreateUserError, MockUserRepository, SignInError, SignedIn,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The user a concurrent request created first.
fn winner() -> User {
    social_login_testing::contract::repository::fixtures::new_user(None, false)
}

fn service_on(world: &World, users: MockUserRepository) -> social_login_app::AuthService {
    world.service_swapping(|ports| ports.users = Arc::new(users))
}

/// Users whose provider login must be tried `times` times and fails with `error` each time.
fn sign_in_failing(
    times: usize,
    error: impl Fn() -> SignInError + Send + 'static,
) -> MockUserRepository {
    let mut users = MockUserRepository::new();
    users
        .expect_sign_in_with_provider()
        .times(times)
        .returning(move |_| Err(error()));
    users
}

#[tokio::test]
async fn a_login_that_loses_a_race_decides_again_with_a_fresh_session() {
    let world = World::new();
    let user = winner();
    let signed_in = user.clone();
    let sessions = Arc::new(Mutex::new(Vec::new()));
    let seen = sessions.clone();
    let attempts = AtomicUsize::new(0);
    let mut users = MockUserRepository::new();
    users
        .expect_sign_in_with_provider()
        .times(2)
        .returning(move |sign_in| {
            seen.lock().unwrap().push(sign_in.session.hash);
            if attempts.fetch_add(1, Ordering::SeqCst) == 0 {
                Err(SignInError::Raced)
            } else {
                Ok(SignedIn {
                    user: signed_in.clone(),
                    is_new_user: false,
                })
            }
        });
    let service = service_on(&world, users);
    let result = world.github_login_on(&service).await.unwrap();
    assert_eq!(result.user, user);
    assert!(!result.is_new_user);
    let sessions = sessions.lock().unwrap();
    assert_ne!(
        sessions[0], sessions[1],
        "a lost attempt's session is never reused"
    );
}

#[tokio::test]
async fn a_login_that_keeps_losing_races_gives_up_as_unavailable() {
    let world = World::new();
    let service = service_on(&world, sign_in_failing(3, || SignInError::Raced));
    assert!(matches!(
        world.github_login_on(&service).await,
        Err(AppError::Unavailable(_))
    ));
}

#[tokio::test]
async fn a_login_refused_for_its_email_is_email_already_registered_at_once() {
    let world = World::new();
    let users = sign_in_failing(1, || {
        SignInError::EmailAlreadyRegistered(
            social_login_domain::linking::EmailAlreadyRegistered::NO_OFFER,
        )
    });
    let service = service_on(&world, users);
    assert_eq!(
        world.github_login_on(&service).await,
        Err(AppError::EmailAlreadyRegistered)
    );
}

#[tokio::test]
async fn a_connect_that_loses_the_race_is_provider_already_linked() {
    let (world, caller) = World::with_user("pat@example.com").await;
    let mut users = MockUserRepository::new();
    users.expect_find_link().return_const(Ok(None));
    users.expect_list_links().return_const(Ok(vec![]));
    users
        .expect_add_link()
        .times(1)
        .returning(|_| Err(AddLinkError::ProviderAlreadyLinked));
    let service = service_on(&world, users);
    let state = world.started_connect(caller, ada_on_github()).await;
    assert_eq!(
        service
            .connect_raw(world.fresh_login(caller).await, "github", CODE, &state)
            .await,
        Err(AppError::ProviderAlreadyLinked)
    );
}

#[tokio::test]
async fn a_registration_that_loses_the_email_race_is_email_already_registered() {
    let world = World::new();
    let mut users = MockUserRepository::new();
    users.expect_find_user_by_email().returning(|_| Ok(None));
    users
        .expect_create_user()
        .times(1)
        .returning(|_| Err(CreateUserError::EmailTaken));
    let service = service_on(&world, users);
    let result = service
        .register(
            registration("ada@example.com", "correct horse"),
            &Origin::default(),
        )
        .await;
    assert_eq!(result, Err(AppError::EmailAlreadyRegistered));
    assert_eq!(world.refresh_tokens.stored_count(), 0);
}
