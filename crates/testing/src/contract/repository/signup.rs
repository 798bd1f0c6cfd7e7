//! The sign-up policy inside the login's transaction: a registration it refuses writes
//! nothing, and it never refuses a login that is not a registration.

use super::Repository;
use super::fixtures::{
    auto_linking_login_of, login_of, now, provider_identity, refresh_works, sign_in,
};
use social_login_domain::{EmailDomain, EventSet, ProviderKey, SignupPolicy, SignupRefused};
use social_login_ports::{Claim, SignInError};
use std::sync::Arc;
use time::Duration;

fn closed() -> SignupPolicy {
    SignupPolicy {
        allow_signup: false,
        ..SignupPolicy::default()
    }
}

fn only(domain: &str) -> SignupPolicy {
    SignupPolicy {
        allowed_email_domains: vec![EmailDomain::parse(domain).expect("valid domain")],
        ..SignupPolicy::default()
    }
}

pub async fn a_sign_up_the_policy_refuses_writes_nothing(repo: Arc<dyn Repository>) {
    let mut login = login_of(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), true);
    login.signup = closed();
    login.audit = crate::audit_at(now(), EventSet::all());
    assert_eq!(
        repo.sign_in_with_provider(login.clone()).await,
        Err(SignInError::SignupRefused(SignupRefused::NotAllowed))
    );
    assert_eq!(repo.find_user(login.new_user_id).await.unwrap(), None);
    let email = login.identity.email.clone().unwrap();
    assert_eq!(repo.find_user_by_email(&email).await.unwrap(), None);
    assert_eq!(
        repo.find_link(&login.identity.account()).await.unwrap(),
        None
    );
    assert!(
        !refresh_works(&*repo, login.session.hash).await,
        "no session was started"
    );
    let queued = repo
        .claim_due(
            Claim::new(now() + Duration::minutes(1), Duration::seconds(30)),
            8,
        )
        .await
        .unwrap();
    assert!(queued.is_empty(), "no event was recorded");
}

pub async fn a_closed_provider_still_signs_in_its_accounts_and_auto_links(
    repo: Arc<dyn Repository>,
) {
    let github = provider_identity(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), true);
    let ada = repo
        .sign_in_with_provider(sign_in(github.clone()))
        .await
        .unwrap()
        .user;
    let mut again = sign_in(github);
    again.signup = closed();
    let returning = repo.sign_in_with_provider(again).await.unwrap();
    assert_eq!((returning.user.id, returning.is_new_user), (ada.id, false));

    let mut google =
        auto_linking_login_of(ProviderKey::GOOGLE, "g-1", Some("ADA@example.com"), true);
    google.signup = closed();
    let linked = repo.sign_in_with_provider(google.clone()).await.unwrap();
    assert_eq!((linked.user.id, linked.is_new_user), (ada.id, false));
    let link = repo
        .find_link(&google.identity.account())
        .await
        .unwrap()
        .expect("auto-linked");
    assert_eq!(link.user_id, ada.id);
}

pub async fn a_domain_list_admits_only_new_users_of_its_domains(repo: Arc<dyn Repository>) {
    let mut outsider = login_of(ProviderKey::GOOGLE, "g-1", Some("bob@example.com"), true);
    outsider.signup = only("acme.com");
    assert_eq!(
        repo.sign_in_with_provider(outsider.clone()).await,
        Err(SignInError::SignupRefused(
            SignupRefused::EmailDomainNotAllowed
        ))
    );
    assert_eq!(repo.find_user(outsider.new_user_id).await.unwrap(), None);

    let mut member = login_of(ProviderKey::GOOGLE, "g-2", Some("ada@Acme.com"), true);
    member.signup = only("acme.com");
    let signed_in = repo.sign_in_with_provider(member).await.unwrap();
    assert!(signed_in.is_new_user);
}
