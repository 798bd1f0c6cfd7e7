//! Creating and finding users: atomic first link and first session, case-insensitive email
//! uniqueness.

use super::Repository;
use super::fixtures::creation;
use super::fixtures::store_user;
use super::fixtures::{
    email, event_kinds, new_link, new_user, now, random_hash, session, store_user_with_link,
    user_by_email,
};
use social_login_domain::{
    AuditEventType, NewLinkedAccount, ProviderAccount, ProviderKey, User, UserId,
};
use social_login_ports::CreateUserError;
use social_login_ports::UserCreation;
use std::sync::Arc;
use time::Duration;

/// Creating `user` with `first_link`, which must be refused: why. Checks that the refusal
/// left no user.
async fn refused_creation(
    repo: &Arc<dyn Repository>,
    user: &User,
    first_link: NewLinkedAccount,
) -> CreateUserError {
    let created = repo.create_user(creation(user.clone(), Some(first_link), crate::audit_now()));
    let refused = created.await.expect_err("the creation is refused");
    let left = repo.find_user(user.id).await.unwrap();
    assert_eq!(left, None, "a refused creation leaves no user");
    refused
}

pub async fn a_user_created_with_a_link_is_found_by_id_email_and_link(repo: Arc<dyn Repository>) {
    let user = new_user(Some("Ada@Example.com"), false);
    let link = new_link(user.id, ProviderKey::GITHUB, "42");
    let created = store_user(repo.as_ref(), &user, Some(link.clone())).await;
    assert_eq!(created, user.clone());

    assert_eq!(
        repo.find_user(user.id).await.unwrap(),
        Some(created.clone())
    );
    let by_email = user_by_email(&*repo, "ada@EXAMPLE.com")
        .await
        .expect("found by email in another case");
    assert_eq!(by_email.id, user.id);
    assert_eq!(
        by_email.email.as_ref().map(|e| e.as_str()),
        Some("Ada@Example.com"),
        "the email is kept as received"
    );
    let found = repo.find_link(&link.account()).await.unwrap();
    assert_eq!(found, Some(link.to_linked_account()));
    assert_eq!(
        repo.list_links(user.id).await.unwrap(),
        vec![link.to_linked_account()]
    );
}

/// A user is stored as given, its lock included (the service creates none locked).
pub async fn a_user_is_stored_with_its_lock_as_given(repo: Arc<dyn Repository>) {
    let locked = User {
        locked: true,
        ..new_user(Some("grace@example.com"), true)
    };
    store_user(repo.as_ref(), &locked, None).await;
    assert_eq!(repo.find_user(locked.id).await.unwrap(), Some(locked));
}

pub async fn unknown_users_links_and_emails_are_none(repo: Arc<dyn Repository>) {
    assert_eq!(repo.find_user(UserId::new()).await.unwrap(), None);
    assert_eq!(user_by_email(&*repo, "nobody@example.com").await, None);
    let subject = social_login_domain::ProviderSubject::parse("1").unwrap();
    let provider = ProviderKey::GOOGLE;
    let account = ProviderAccount { provider, subject };
    assert_eq!(repo.find_link(&account).await.unwrap(), None);
    assert!(repo.list_links(UserId::new()).await.unwrap().is_empty());
}

pub async fn creating_a_user_whose_first_link_is_taken_leaves_no_user(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    store_user_with_link(&*repo, "ada@example.com", false, github).await;

    let second = new_user(Some("grace@example.com"), false);
    let taken = new_link(second.id, ProviderKey::GITHUB, "42");
    assert_eq!(
        refused_creation(&repo, &second, taken).await,
        CreateUserError::ProviderAccountTaken
    );
    assert_eq!(user_by_email(&*repo, "grace@example.com").await, None);
    assert!(repo.list_links(second.id).await.unwrap().is_empty());
}

/// A password registration: the user and its first session in one transaction.
pub async fn a_registration_writes_its_user_with_its_first_session_or_neither(
    repo: Arc<dyn Repository>,
) {
    let hash = random_hash();
    let ada = new_user(Some("ada@example.com"), true);
    let registration = UserCreation {
        first_session: Some(session(hash, now() + Duration::days(30))),
        ..creation(ada.clone(), None, crate::audit_now())
    };
    repo.create_user(registration).await.unwrap();
    assert_eq!(repo.active_sessions(ada.id, now()).await.unwrap(), 1);
    assert_eq!(
        event_kinds(&*repo, ada.id).await,
        [AuditEventType::UserLogin, AuditEventType::UserRegistered]
    );

    // A session that cannot be written (its token's hash is taken) takes the user with it.
    let grace = new_user(Some("grace@example.com"), true);
    let clashing = UserCreation {
        first_session: Some(session(hash, now() + Duration::days(30))),
        ..creation(grace.clone(), None, crate::audit_now())
    };
    assert!(repo.create_user(clashing).await.is_err());
    assert_eq!(repo.find_user(grace.id).await.unwrap(), None);
    assert_eq!(user_by_email(&*repo, "grace@example.com").await, None);
}

pub async fn emails_are_unique_ignoring_case(repo: Arc<dyn Repository>) {
    let first = new_user(Some("ada@example.com"), false);
    store_user(repo.as_ref(), &first, None).await;

    let shouting = new_user(Some("ADA@Example.COM"), true);
    let link = new_link(shouting.id, ProviderKey::GOOGLE, "7");
    assert_eq!(
        refused_creation(&repo, &shouting, link).await,
        CreateUserError::EmailTaken
    );
}

pub async fn any_number_of_users_may_have_no_email(repo: Arc<dyn Repository>) {
    for subject in ["1", "2"] {
        let user = new_user(None, false);
        let link = new_link(user.id, ProviderKey::TWITTER, subject);
        store_user(repo.as_ref(), &user, Some(link)).await;
    }
}

pub async fn a_first_link_for_another_user_is_rejected_before_touching_the_database(
    repo: Arc<dyn Repository>,
) {
    let user = new_user(Some("ada@example.com"), false);
    let stray = new_link(UserId::new(), ProviderKey::GITHUB, "42");
    assert!(matches!(
        refused_creation(&repo, &user, stray).await,
        CreateUserError::Repository(_)
    ));
}

/// A user registered by a provider that did not verify the email.
fn unverified_provider_user(address: &str) -> User {
    User {
        email_verified: false,
        password_hash: None,
        ..new_user(Some(address), false)
    }
}

pub async fn an_unverified_provider_email_is_kept_but_claims_nothing(repo: Arc<dyn Repository>) {
    let squatter = unverified_provider_user("victim@example.com");
    let stored = store_user(repo.as_ref(), &squatter, None).await;
    assert_eq!(
        stored.email.as_ref().map(|e| e.as_str()),
        Some("victim@example.com"),
        "kept for display"
    );
    assert_eq!(
        user_by_email(&*repo, "victim@example.com").await,
        None,
        "matched by nothing"
    );
    // Neither a second unverified holder nor the real owner is blocked.
    let second_holder = unverified_provider_user("Victim@Example.com");
    store_user(repo.as_ref(), &second_holder, None).await;
    let owner = new_user(Some("victim@example.com"), true);
    store_user(repo.as_ref(), &owner, None).await;
    let found = user_by_email(&*repo, "VICTIM@example.com")
        .await
        .expect("the owner claims the address");
    assert_eq!(found.id, owner.id);
    assert_eq!(
        repo.find_user(squatter.id).await.unwrap().unwrap().email,
        Some(email("victim@example.com"))
    );
}

pub async fn emails_match_ignoring_ascii_case_only(repo: Arc<dyn Repository>) {
    let owner = new_user(Some("Kim@Example.com"), true);
    store_user(repo.as_ref(), &owner, None).await;
    assert_eq!(
        user_by_email(&*repo, "KIM@example.COM")
            .await
            .map(|user| user.id),
        Some(owner.id)
    );
    // U+212A KELVIN SIGN lowercases to `k` under Unicode rules: not the same address here.
    let kelvin = email("\u{212A}im@example.com");
    assert_eq!(repo.find_user_by_email(&kelvin).await.unwrap(), None);
    let look_alike = new_user(Some("\u{212A}im@example.com"), true);
    store_user(repo.as_ref(), &look_alike, None).await;
    assert_eq!(
        repo.find_user_by_email(&kelvin)
            .await
            .unwrap()
            .map(|user| user.id),
        Some(look_alike.id),
        "an address of its own, found by its own spelling"
    );
    let shouting = new_user(Some("\u{212A}IM@EXAMPLE.com"), true);
    assert_eq!(
        repo.create_user(UserCreation {
            user: shouting,
            first_link: None,
            first_session: None,
            audit: crate::audit_now()
        })
        .await,
        Err(CreateUserError::EmailTaken),
        "ASCII case still does not make a new address"
    );
}
