//! The sign-up policy in the use cases: the registry's per-provider policy reaches the
//! login's one decision, a refusal writes nothing, and `password_signup` closes
//! registration.

use crate::world::{World, ada_on_github, github_login, login_at};
use social_login_app::{AppError, AuthPolicy, Registration};
use social_login_domain::{EmailDomain, Origin, ProviderKey, SecretText, SignupPolicy};

/// A world whose github has `policy`.
fn github_with(policy: SignupPolicy, auth: AuthPolicy) -> World {
    let mut world = World::with_policy(auth);
    let mut ports = world.ports();
    ports.providers = ports
        .providers
        .with_signup_policy(ProviderKey::GITHUB, policy);
    world.service = world.service_with(ports);
    world
}

fn closed() -> SignupPolicy {
    SignupPolicy {
        allow_signup: false,
        ..SignupPolicy::default()
    }
}

fn acme_only() -> SignupPolicy {
    SignupPolicy {
        allowed_email_domains: vec![EmailDomain::parse("acme.com").unwrap()],
        ..SignupPolicy::default()
    }
}

#[tokio::test]
async fn a_closed_provider_registers_nobody_and_stores_nothing() {
    let world = github_with(closed(), AuthPolicy::default());
    let refused = world.sign_in(github_login("gh-1", "ada@acme.com")).await;
    assert_eq!(refused.err(), Some(AppError::SignupNotAllowed));
    world.assert_nothing_stored("a refused sign-up");
    // The other providers keep their own (default) policy.
    let google = login_at(ProviderKey::GOOGLE, "g-1", None, false);
    assert!(world.sign_in(google).await.unwrap().is_new_user);
}

#[tokio::test]
async fn a_domain_list_refuses_other_domains_and_unverified_emails() {
    let world = github_with(acme_only(), AuthPolicy::default());
    let elsewhere = world.sign_in(ada_on_github()).await;
    assert_eq!(elsewhere.err(), Some(AppError::EmailDomainNotAllowed));
    let unverified = login_at(ProviderKey::GITHUB, "gh-2", Some("ada@acme.com"), false);
    let refused = world.sign_in(unverified).await;
    assert_eq!(refused.err(), Some(AppError::EmailDomainNotAllowed));
    world.assert_nothing_stored("a refused sign-up");
    let member = world.sign_in(github_login("gh-3", "Ada@Acme.COM")).await;
    assert!(member.unwrap().is_new_user);
}

#[tokio::test]
async fn a_closed_provider_is_still_connected_and_still_auto_links() {
    let auto_link = AuthPolicy {
        auto_link_by_email: true,
        ..AuthPolicy::default()
    };
    let world = github_with(closed(), auto_link);
    let google = login_at(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let ada = world.sign_in(google).await.unwrap().user.id;
    let linked = world.sign_in(ada_on_github()).await.unwrap();
    assert_eq!((linked.user.id, linked.is_new_user), (ada, false));

    let grace = world
        .sign_in(login_at(ProviderKey::GOOGLE, "g-2", None, false))
        .await
        .unwrap()
        .user
        .id;
    let connected = world
        .connect_as(grace, github_login("gh-2", "grace@example.com"))
        .await
        .unwrap();
    assert_eq!(connected.user_id, grace);
    let again = world
        .sign_in(github_login("gh-2", "grace@example.com"))
        .await
        .unwrap();
    assert_eq!((again.user.id, again.is_new_user), (grace, false));
}

#[tokio::test]
async fn password_sign_up_off_refuses_registration_before_looking_at_it() {
    let world = World::with_policy(AuthPolicy {
        password_signup: false,
        ..AuthPolicy::default()
    });
    for (email, password) in [("pat@example.com", "correct horse battery"), ("", "")] {
        let registration = Registration {
            email: email.into(),
            password: SecretText::new(password),
            full_name: None,
        };
        let refused = world
            .service
            .register(registration, &Origin::default())
            .await;
        assert_eq!(refused.err(), Some(AppError::SignupNotAllowed));
    }
    assert_eq!(world.users.user_count(), 0);
}
