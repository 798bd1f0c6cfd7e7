//! What a provider login does, and whether a connect may link (docs/api.md#linking-rules).
//!
//! These rules close the known account takeovers: an email only links two accounts when
//! linking is switched on *and* both sides have verified it, so nobody can pre-register a
//! victim's address, or sign in with an unverified provider email, and inherit the account.

use crate::signup::{SignupPolicy, SignupRefused};
use crate::{LinkedAccount, ProviderIdentity, User, UserId};

/// The outcome of a provider login, decided from what is already stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginDecision {
    /// The provider account is linked already: log that user in, whatever the email says.
    SignIn { user: UserId },
    /// The verified email belongs to a user with a verified email, and auto-linking is on.
    LinkThenSignIn { user: UserId },
    /// Nobody is known by this account or email: register a new user.
    Register,
}

/// The email matches an existing user who may not be linked this way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("email already registered")]
pub struct EmailAlreadyRegistered {
    /// The user who may finish the link by signing in (a link token is offered for them):
    /// set when the provider vouches for the email, the user has no account of this
    /// provider yet, and the provider's linking is not `never`.
    pub confirm_with: Option<UserId>,
}

impl EmailAlreadyRegistered {
    /// Refused, with no link to offer.
    pub const NO_OFFER: Self = Self { confirm_with: None };
}

/// How a provider's login may join the user who holds its verified email
/// (`[oauth_providers.<key>] linking`, docs/api.md#linking-rules).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Linking {
    /// Link at once when both sides verified the address (else as `Confirm`).
    Auto,
    /// Refuse with 409, offering a link token the existing user redeems after signing in.
    #[default]
    Confirm,
    /// Refuse with 409 and offer nothing.
    Never,
}

impl Linking {
    /// The default of a provider without its own `linking`: `Auto` where the global
    /// `auto_link_by_email` is on, else `Confirm`.
    pub fn default_for(auto_link_by_email: bool) -> Self {
        match auto_link_by_email {
            true => Self::Auto,
            false => Self::Confirm,
        }
    }
}

/// The user whose email matches the provider's, with that user's links.
#[derive(Debug, Clone, Copy)]
pub struct EmailOwner<'a> {
    pub user: &'a User,
    pub links: &'a [LinkedAccount],
}

/// Decides a provider login.
///
/// - `existing_link`: the link of this (provider, subject), if any.
/// - `email_owner`: the user whose email matches the provider's email, if any.
pub fn decide_login(
    identity: &ProviderIdentity,
    existing_link: Option<&LinkedAccount>,
    email_owner: Option<EmailOwner<'_>>,
    linking: Linking,
) -> Result<LoginDecision, EmailAlreadyRegistered> {
    if let Some(link) = existing_link {
        return Ok(LoginDecision::SignIn { user: link.user_id });
    }
    let Some(owner) = email_owner else {
        return Ok(LoginDecision::Register);
    };
    let both_verified = identity.verified_email().is_some() && owner.user.email_verified;
    // A user has one account per provider: a second account of the same provider with the
    // same email is someone else's, or a second identity the user must connect by hand.
    let owner_has_provider = owner
        .links
        .iter()
        .any(|link| link.provider == identity.provider);
    if linking == Linking::Auto && both_verified && !owner_has_provider {
        return Ok(LoginDecision::LinkThenSignIn {
            user: owner.user.id,
        });
    }
    // The owner proves the address by signing in to finish the link: only the provider's
    // side must be verified, so a pre-registered address cannot be confirmed by anyone but
    // whoever holds that account's password.
    let offer =
        linking != Linking::Never && identity.verified_email().is_some() && !owner_has_provider;
    Err(EmailAlreadyRegistered {
        confirm_with: offer.then_some(owner.user.id),
    })
}

/// A provider login refused by the linking rules or by the provider's sign-up policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LoginRefused {
    #[error(transparent)]
    EmailAlreadyRegistered(#[from] EmailAlreadyRegistered),
    #[error(transparent)]
    Signup(#[from] SignupRefused),
}

/// Decides a provider login as [`decide_login`] does, then lets a registration through
/// only if `signup`, the provider's policy, admits this identity as a new user. Signing
/// in a linked account and auto-linking to an existing user are not sign-ups: the policy
/// never refuses them (docs/api.md#sign-up-policy).
pub fn decide_sign_in(
    identity: &ProviderIdentity,
    existing_link: Option<&LinkedAccount>,
    email_owner: Option<EmailOwner<'_>>,
    linking: Linking,
    signup: &SignupPolicy,
) -> Result<LoginDecision, LoginRefused> {
    let decision = decide_login(identity, existing_link, email_owner, linking)?;
    if decision == LoginDecision::Register {
        signup.check_new_user(identity)?;
    }
    Ok(decision)
}

/// Connect refused: the provider account, or the provider for this user, is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("provider already linked")]
pub struct ProviderAlreadyLinked;

/// What a connect does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectDecision {
    /// Link the provider account to the caller.
    Link,
    /// The account is the caller's link already: renew its tokens (docs/api.md#connect).
    Renew(crate::LinkedAccountId),
}

/// Decides a connect by `caller`: the caller's own link of this very account is renewed;
/// otherwise the provider account must be linked to nobody and the caller must not have an
/// account of this provider yet.
pub fn decide_connect(
    caller: UserId,
    caller_links: &[LinkedAccount],
    identity: &ProviderIdentity,
    existing_link: Option<&LinkedAccount>,
) -> Result<ConnectDecision, ProviderAlreadyLinked> {
    match existing_link {
        Some(link) if link.user_id == caller => return Ok(ConnectDecision::Renew(link.id)),
        Some(_) => return Err(ProviderAlreadyLinked),
        None => {}
    }
    let caller_has_provider = caller_links
        .iter()
        .any(|link| link.provider == identity.provider);
    if caller_has_provider {
        return Err(ProviderAlreadyLinked);
    }
    Ok(ConnectDecision::Link)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Email, LinkedAccountId, ProviderKey, ProviderSubject};
    use time::OffsetDateTime;

    fn identity(email: Option<&str>, verified: bool) -> ProviderIdentity {
        crate::test_fixtures::identity(ProviderKey::GITHUB, "583231", email, verified)
    }

    fn user(email: &str, verified: bool) -> User {
        User {
            id: UserId::new(),
            email: Some(Email::parse(email).unwrap()),
            full_name: None,
            avatar_url: None,
            email_verified: verified,
            password_hash: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            locked: false,
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
            &identity(Some("ada@example.com"), true),
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
            &identity(Some("ada@example.com"), false),
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
        let decision = decide_login(
            &identity(Some("ada@example.com"), true),
            None,
            None,
            Linking::Confirm,
        );
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
            let email = identity(Some("ada@example.com"), vouched);
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
        let decision = decide_sign_in(
            &identity(Some("ada@example.com"), true),
            None,
            None,
            Linking::Auto,
            &closed(),
        );
        assert_eq!(
            decision,
            Err(LoginRefused::Signup(SignupRefused::NotAllowed))
        );
    }

    #[test]
    fn a_closed_provider_still_signs_in_a_linked_account_and_auto_links() {
        let owner = user("ada@example.com", true);
        let linked = link(owner.id, ProviderKey::GITHUB);
        let identity = identity(Some("ada@example.com"), true);
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
            decide_sign_in(
                &identity(Some("ada@example.com"), true),
                None,
                owned(&owner),
                Linking::Auto,
                &acme_only
            ),
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
            decide_sign_in(
                &identity(Some("ada@example.com"), true),
                None,
                owned(&owner),
                Linking::Never,
                &closed()
            ),
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
        let taken = decide_connect(caller, &[], &github, Some(&someones));
        assert_eq!(taken, Err(ProviderAlreadyLinked), "someone else's");
        let has_github = link(caller, ProviderKey::GITHUB);
        let another = decide_connect(caller, &[has_github], &github, None);
        assert_eq!(
            another,
            Err(ProviderAlreadyLinked),
            "the caller has another"
        );
        let has_google = [link(caller, ProviderKey::GOOGLE)];
        let new = decide_connect(caller, &has_google, &github, None);
        assert_eq!(new, Ok(ConnectDecision::Link), "a new provider account");
    }

    #[test]
    fn connecting_the_callers_own_link_again_renews_it() {
        let github = identity(None, false);
        let caller = UserId::new();
        let own = link(caller, ProviderKey::GITHUB);
        let again = decide_connect(caller, std::slice::from_ref(&own), &github, Some(&own));
        assert_eq!(again, Ok(ConnectDecision::Renew(own.id)));
    }
}
