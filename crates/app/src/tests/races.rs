//! Losing a race to a concurrent request: the unique constraints answer, the use case
//! decides again or reports the conflict.

use super::world::{CODE, World, github_login, identity, provider_login};
use crate::{AppError, Ports, Registration};
use social_login_domain::{
    LinkedAccount, LinkedAccountId, ProviderKey, ProviderSubject, SecretText, User, UserId,
};
use social_login_ports::{AddLinkError, CreateUserError, MockUserRepository};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use time::OffsetDateTime;

fn winner() -> User {
    User {
        id: UserId::new(),
        email: None,
        full_name: None,
        avatar_url: None,
        email_verified: false,
        password_hash: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
    }
}

fn link_of(user: &User, subject: &str) -> LinkedAccount {
    LinkedAccount {
        id: LinkedAccountId::new(),
        user_id: user.id,
        provider: ProviderKey::Github,
        subject: ProviderSubject::parse(subject).unwrap(),
        email: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
    }
}

fn service_on(world: &World, users: MockUserRepository) -> crate::AuthService {
    world.service_with(Ports {
        users: Arc::new(users),
        ..world.ports()
    })
}

#[tokio::test]
async fn a_login_that_loses_the_registration_race_signs_in_the_winners_user() {
    let world = World::new();
    let user = winner();
    let link = link_of(&user, "gh-1");
    let mut users = MockUserRepository::new();
    let passes = AtomicUsize::new(0);
    // First pass: nobody is linked yet. Second pass: the concurrent login stored the link.
    users.expect_find_link().times(2).returning(move |_, _| {
        Ok((passes.fetch_add(1, Ordering::SeqCst) > 0).then(|| link.clone()))
    });
    users
        .expect_create_user()
        .times(1)
        .returning(|_, _| Err(CreateUserError::ProviderAccountTaken));
    users
        .expect_update_link_tokens()
        .times(1)
        .returning(|_, _, _, _, _| Ok(true));
    let found = user.clone();
    users
        .expect_find_user()
        .returning(move |_| Ok(Some(found.clone())));
    let service = service_on(&world, users);
    world.github.answer(Ok(provider_login(identity(
        ProviderKey::Github,
        "gh-1",
        None,
        false,
    ))));
    let state = world.login_state("github").await;
    let result = service
        .callback("github", CODE, &state, None)
        .await
        .unwrap();
    assert!(!result.is_new_user);
    assert_eq!(result.user, user);
}

#[tokio::test]
async fn a_login_that_keeps_losing_races_gives_up_as_unavailable() {
    let world = World::new();
    let mut users = MockUserRepository::new();
    users.expect_find_link().times(3).returning(|_, _| Ok(None));
    users
        .expect_create_user()
        .times(3)
        .returning(|_, _| Err(CreateUserError::ProviderAccountTaken));
    let service = service_on(&world, users);
    world.github.answer(Ok(provider_login(identity(
        ProviderKey::Github,
        "gh-1",
        None,
        false,
    ))));
    let state = world.login_state("github").await;
    assert!(matches!(
        service.callback("github", CODE, &state, None).await,
        Err(AppError::Unavailable(_))
    ));
    assert_eq!(world.refresh_tokens.stored_count(), 0);
}

#[tokio::test]
async fn a_registration_that_loses_the_email_race_decides_again_and_refuses() {
    let world = World::new();
    let owner = User {
        email: Some(social_login_domain::Email::parse("ada@example.com").unwrap()),
        ..winner()
    };
    let mut users = MockUserRepository::new();
    // Pass one; pass two, and its second look after finding the email's owner.
    users.expect_find_link().times(3).returning(|_, _| Ok(None));
    // The second pass finds the winner; its links are read for the linking rule.
    users.expect_list_links().times(1).returning(|_| Ok(vec![]));
    let lookups = AtomicUsize::new(0);
    users
        .expect_find_user_by_email()
        .times(2)
        .returning(
            move |_| Ok((lookups.fetch_add(1, Ordering::SeqCst) > 0).then(|| owner.clone())),
        );
    users
        .expect_create_user()
        .times(1)
        .returning(|_, _| Err(CreateUserError::EmailTaken));
    let service = service_on(&world, users);
    world
        .github
        .answer(Ok(github_login("gh-1", "ada@example.com")));
    let state = world.login_state("github").await;
    assert_eq!(
        service.callback("github", CODE, &state, None).await,
        Err(AppError::EmailAlreadyRegistered)
    );
}

#[tokio::test]
async fn a_connect_that_loses_the_race_is_provider_already_linked() {
    let world = World::new();
    let mut users = MockUserRepository::new();
    users.expect_find_link().returning(|_, _| Ok(None));
    users.expect_list_links().returning(|_| Ok(vec![]));
    users
        .expect_add_link()
        .times(1)
        .returning(|_| Err(AddLinkError::ProviderAlreadyLinked));
    let service = service_on(&world, users);
    world
        .github
        .answer(Ok(github_login("gh-1", "ada@example.com")));
    let caller = UserId::new();
    let state = world.connect_state("github", caller).await;
    assert_eq!(
        service.connect(caller, "github", CODE, &state, None).await,
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
        .returning(|_, _| Err(CreateUserError::EmailTaken));
    let service = service_on(&world, users);
    let result = service
        .register(Registration {
            email: "ada@example.com".into(),
            password: SecretText::new("correct horse"),
            full_name: None,
        })
        .await;
    assert_eq!(result, Err(AppError::EmailAlreadyRegistered));
    assert_eq!(world.refresh_tokens.stored_count(), 0);
}

#[tokio::test]
async fn a_login_whose_link_is_disconnected_meanwhile_decides_again_and_registers() {
    let world = World::new();
    let owner = winner();
    let link = link_of(&owner, "gh-1");
    let mut users = MockUserRepository::new();
    let passes = AtomicUsize::new(0);
    // First pass: the link exists. Then it is disconnected before the update lands.
    users.expect_find_link().times(2).returning(move |_, _| {
        Ok((passes.fetch_add(1, Ordering::SeqCst) == 0).then(|| link.clone()))
    });
    users
        .expect_update_link_tokens()
        .times(1)
        .returning(|_, _, _, _, _| Ok(false));
    users
        .expect_create_user()
        .times(1)
        .returning(|user, _| Ok(user.into_user()));
    let service = service_on(&world, users);
    world.github.answer(Ok(provider_login(identity(
        ProviderKey::Github,
        "gh-1",
        None,
        false,
    ))));
    let state = world.login_state("github").await;
    let result = service
        .callback("github", CODE, &state, None)
        .await
        .unwrap();
    assert!(result.is_new_user, "not a 500: the second pass registers");
    assert_ne!(result.user.id, owner.id);
}

#[tokio::test]
async fn a_login_whose_reads_straddle_a_concurrent_first_login_signs_that_user_in() {
    let world = World::new();
    let user = User {
        email: Some(social_login_domain::Email::parse("ada@example.com").unwrap()),
        email_verified: true,
        ..winner()
    };
    let link = link_of(&user, "gh-1");
    let mut users = MockUserRepository::new();
    // The other login commits its user and link between our link and email lookups.
    let looks = AtomicUsize::new(0);
    users.expect_find_link().times(2).returning(move |_, _| {
        Ok((looks.fetch_add(1, Ordering::SeqCst) > 0).then(|| link.clone()))
    });
    let owner = user.clone();
    users
        .expect_find_user_by_email()
        .times(1)
        .returning(move |_| Ok(Some(owner.clone())));
    users.expect_list_links().returning(|_| Ok(vec![]));
    users.expect_create_user().never();
    users
        .expect_update_link_tokens()
        .times(1)
        .returning(|_, _, _, _, _| Ok(true));
    let found = user.clone();
    users
        .expect_find_user()
        .returning(move |_| Ok(Some(found.clone())));
    let service = service_on(&world, users);
    world
        .github
        .answer(Ok(github_login("gh-1", "ada@example.com")));
    let state = world.login_state("github").await;
    let result = service
        .callback("github", CODE, &state, None)
        .await
        .unwrap();
    assert_eq!(result.user.id, user.id);
    assert!(!result.is_new_user);
}
