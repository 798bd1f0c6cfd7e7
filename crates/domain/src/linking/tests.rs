use super::*;
use crate::{Email, LinkedAccountId, ProviderKey, ProviderSubject};
use time::OffsetDateTime;

fn identity(email: Option<&str>, verified: bool) -> ProviderIdentity {
    crate::test_fixtures::identity(ProviderKey::GITHUB, "583231", email, verified)
}

/// Ada's identity at the provider, her address vouched for or not.
fn ada(vouched: bool) -> ProviderIdentity {
    identity(Some("ada@example.com"), vouched)
}

/// A user of `email` without a password.
fn user(email: &str, verified: bool) -> User {
    User {
        email: Some(Email::parse(email).unwrap()),
        email_verified: verified,
        ..crate::test_fixtures::user(false)
    }
}

fn link(user: UserId, provider: ProviderKey) -> LinkedAccount {
    LinkedAccount {
        scopes: crate::Scopes::default(),
        id: LinkedAccountId::new(),
        user_id: user,
        provider,
        subject: ProviderSubject::parse("583231").unwrap(),
        email: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
        disabled: false,
    }
}

fn owned(user: &User) -> Option<EmailOwner<'_>> {
    Some(EmailOwner { user, links: &[] })
}

#[test]
fn an_owner_with_an_account_of_this_provider_is_never_auto_linked_again() {
    let owner = user("ada@example.com", true);
    let links = [link(owner.id, ProviderKey::GITHUB)];
    let decision = decide_login(
        &ada(true),
        None,
        Some(EmailOwner {
            user: &owner,
            links: &links,
        }),
        Linking::Auto,
    );
    assert_eq!(decision, Err(EmailAlreadyRegistered::NO_OFFER));
}

#[test]
fn a_linked_account_signs_its_user_in_whatever_the_email_says() {
    let owner = UserId::new();
    let other = user("ada@example.com", true);
    let decision = decide_login(
        &ada(false),
        Some(&link(owner, ProviderKey::GITHUB)),
        Some(EmailOwner {
            user: &other,
            links: &[],
        }),
        Linking::Confirm,
    );
    assert_eq!(decision, Ok(LoginDecision::SignIn { user: owner }));
}

#[test]
fn an_unknown_account_and_email_registers() {
    let decision = decide_login(&ada(true), None, None, Linking::Confirm);
    assert_eq!(decision, Ok(LoginDecision::Register));
}

#[test]
fn a_provider_without_email_registers() {
    assert_eq!(
        decide_login(&identity(None, false), None, None, Linking::Auto),
        Ok(LoginDecision::Register)
    );
}

/// What a login whose email matches an owner gets: linked, refused with a link to
/// confirm, or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Links,
    Offers,
    Refuses,
}

#[test]
fn a_matching_email_links_only_with_auto_link_and_both_sides_verified() {
    use Outcome::*;
    // (the owner's address and whether it is verified, whether the provider vouches for
    // its email, the provider's linking, what happens)
    let cases = [
        ("Ada@Example.com", true, true, Linking::Auto, Links),
        // Confirm: the owner signs in to finish the link.
        ("ada@example.com", true, true, Linking::Confirm, Offers),
        ("ada@example.com", true, true, Linking::Never, Refuses),
        // An unverified provider email never links, and nothing is offered for it.
        ("ada@example.com", true, false, Linking::Auto, Refuses),
        ("ada@example.com", true, false, Linking::Confirm, Refuses),
        // The pre-registration takeover: someone registered the victim's address first.
        // Nothing links; only that account's holder could confirm.
        ("ada@example.com", false, true, Linking::Auto, Offers),
        ("ada@example.com", false, true, Linking::Never, Refuses),
    ];
    for (address, owner_verified, vouched, linking, outcome) in cases {
        let owner = user(address, owner_verified);
        let email = ada(vouched);
        let decision = decide_login(&email, None, owned(&owner), linking);
        let expected = match outcome {
            Links => Ok(LoginDecision::LinkThenSignIn { user: owner.id }),
            Offers => Err(EmailAlreadyRegistered {
                confirm_with: Some(owner.id),
            }),
            Refuses => Err(EmailAlreadyRegistered::NO_OFFER),
        };
        let case = format!("{address} {owner_verified} {vouched} {linking:?}");
        assert_eq!(decision, expected, "{case}");
    }
}

#[test]
fn the_global_switch_is_only_the_default() {
    assert_eq!(Linking::default_for(true), Linking::Auto);
    assert_eq!(Linking::default_for(false), Linking::Confirm);
}

fn closed() -> SignupPolicy {
    SignupPolicy {
        allow_signup: false,
        ..SignupPolicy::default()
    }
}

#[test]
fn a_closed_provider_refuses_to_register_a_new_account() {
    let decision = decide_sign_in(&ada(true), None, None, Linking::Auto, &closed());
    assert_eq!(
        decision,
        Err(LoginRefused::Signup(SignupRefused::NotAllowed))
    );
}

#[test]
fn a_closed_provider_still_signs_in_a_linked_account_and_auto_links() {
    let owner = user("ada@example.com", true);
    let linked = link(owner.id, ProviderKey::GITHUB);
    let identity = ada(true);
    assert_eq!(
        decide_sign_in(&identity, Some(&linked), None, Linking::Confirm, &closed()),
        Ok(LoginDecision::SignIn { user: owner.id })
    );
    assert_eq!(
        decide_sign_in(&identity, None, owned(&owner), Linking::Auto, &closed()),
        Ok(LoginDecision::LinkThenSignIn { user: owner.id })
    );
}

#[test]
fn a_domain_list_does_not_apply_to_auto_linking() {
    let owner = user("ada@example.com", true);
    let acme_only = SignupPolicy {
        allowed_email_domains: vec![crate::EmailDomain::parse("acme.com").unwrap()],
        ..SignupPolicy::default()
    };
    assert_eq!(
        decide_sign_in(&ada(true), None, owned(&owner), Linking::Auto, &acme_only),
        Ok(LoginDecision::LinkThenSignIn { user: owner.id })
    );
    assert_eq!(
        decide_sign_in(
            &identity(Some("bob@example.com"), true),
            None,
            None,
            Linking::Auto,
            &acme_only
        ),
        Err(LoginRefused::Signup(SignupRefused::EmailDomainNotAllowed))
    );
}

#[test]
fn an_email_conflict_is_reported_before_the_sign_up_policy() {
    let owner = user("ada@example.com", true);
    assert_eq!(
        decide_sign_in(&ada(true), None, owned(&owner), Linking::Never, &closed()),
        Err(LoginRefused::EmailAlreadyRegistered(
            EmailAlreadyRegistered::NO_OFFER
        ))
    );
}

#[test]
fn connect_is_refused_when_the_account_is_someone_elses_or_the_caller_has_the_provider() {
    let github = identity(None, false);
    let someones = link(UserId::new(), ProviderKey::GITHUB);
    let caller = UserId::new();
    let taken = decide_connect(caller, &[], &github.account(), Some(&someones));
    assert_eq!(taken, Err(ProviderAlreadyLinked), "someone else's");
    let has_github = link(caller, ProviderKey::GITHUB);
    let another = decide_connect(caller, &[has_github], &github.account(), None);
    assert_eq!(
        another,
        Err(ProviderAlreadyLinked),
        "the caller has another"
    );
    let has_google = [link(caller, ProviderKey::GOOGLE)];
    let new = decide_connect(caller, &has_google, &github.account(), None);
    assert_eq!(new, Ok(ConnectDecision::Link), "a new provider account");
}

#[test]
fn connecting_the_callers_own_link_again_renews_it() {
    let github = identity(None, false);
    let caller = UserId::new();
    let own = link(caller, ProviderKey::GITHUB);
    let again = decide_connect(
        caller,
        std::slice::from_ref(&own),
        &github.account(),
        Some(&own),
    );
    assert_eq!(again, Ok(ConnectDecision::Renew(own.id)));
}
