//! What a provider login does, and whether a connect may link (CONTRACT §4).
//!
//! These rules close the known account takeovers: an email only links two accounts when
//! linking is switched on *and* both sides have verified it, so nobody can pre-register a
//! victim's address, or sign in with an unverified provider email, and inherit the account.

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
pub struct EmailAlreadyRegistered;

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
    auto_link_by_email: bool,
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
    if auto_link_by_email && both_verified && !owner_has_provider {
        Ok(LoginDecision::LinkThenSignIn {
            user: owner.user.id,
        })
    } else {
        Err(EmailAlreadyRegistered)
    }
}

/// Connect refused: the provider account, or the provider for this user, is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("provider already linked")]
pub struct ProviderAlreadyLinked;

/// Decides a connect: the provider account must be linked to nobody (the caller included)
/// and the caller must not have an account of this provider yet.
pub fn check_connect(
    caller_links: &[LinkedAccount],
    identity: &ProviderIdentity,
    existing_link: Option<&LinkedAccount>,
) -> Result<(), ProviderAlreadyLinked> {
    let caller_has_provider = caller_links
        .iter()
        .any(|link| link.provider == identity.provider);
    if existing_link.is_some() || caller_has_provider {
        return Err(ProviderAlreadyLinked);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Email, LinkedAccountId, ProviderKey, ProviderSubject};
    use time::OffsetDateTime;

    fn identity(email: Option<&str>, verified: bool) -> ProviderIdentity {
        ProviderIdentity {
            provider: ProviderKey::GITHUB,
            subject: ProviderSubject::parse("583231").unwrap(),
            email: email.map(|e| Email::parse(e).unwrap()),
            email_verified: verified,
            full_name: None,
            avatar_url: None,
        }
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
            true,
        );
        assert_eq!(decision, Err(EmailAlreadyRegistered));
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
            false,
        );
        assert_eq!(decision, Ok(LoginDecision::SignIn { user: owner }));
    }

    #[test]
    fn an_unknown_account_and_email_registers() {
        let decision = decide_login(&identity(Some("ada@example.com"), true), None, None, false);
        assert_eq!(decision, Ok(LoginDecision::Register));
    }

    #[test]
    fn a_provider_without_email_registers() {
        assert_eq!(
            decide_login(&identity(None, false), None, None, true),
            Ok(LoginDecision::Register)
        );
    }

    #[test]
    fn a_matching_email_links_only_with_auto_link_and_both_sides_verified() {
        let owner = user("Ada@Example.com", true);
        assert_eq!(
            decide_login(
                &identity(Some("ada@example.com"), true),
                None,
                owned(&owner),
                true
            ),
            Ok(LoginDecision::LinkThenSignIn { user: owner.id })
        );
    }

    #[test]
    fn a_matching_email_is_refused_when_auto_link_is_off() {
        let owner = user("ada@example.com", true);
        assert_eq!(
            decide_login(
                &identity(Some("ada@example.com"), true),
                None,
                owned(&owner),
                false
            ),
            Err(EmailAlreadyRegistered)
        );
    }

    #[test]
    fn an_unverified_provider_email_never_links() {
        let owner = user("ada@example.com", true);
        assert_eq!(
            decide_login(
                &identity(Some("ada@example.com"), false),
                None,
                owned(&owner),
                true
            ),
            Err(EmailAlreadyRegistered)
        );
    }

    #[test]
    fn a_pre_registered_unverified_user_is_never_linked() {
        // The pre-registration takeover: someone registered the victim's address first.
        let squatter = user("ada@example.com", false);
        assert_eq!(
            decide_login(
                &identity(Some("ada@example.com"), true),
                None,
                owned(&squatter),
                true
            ),
            Err(EmailAlreadyRegistered)
        );
    }

    #[test]
    fn connect_is_refused_when_the_account_is_linked_to_anyone() {
        let someone = UserId::new();
        assert_eq!(
            check_connect(
                &[],
                &identity(None, false),
                Some(&link(someone, ProviderKey::GITHUB))
            ),
            Err(ProviderAlreadyLinked)
        );
    }

    #[test]
    fn connect_is_refused_when_the_caller_has_that_provider_already() {
        let caller = UserId::new();
        assert_eq!(
            check_connect(
                &[link(caller, ProviderKey::GITHUB)],
                &identity(None, false),
                None
            ),
            Err(ProviderAlreadyLinked)
        );
    }

    #[test]
    fn connect_of_a_new_provider_account_is_allowed() {
        let caller = UserId::new();
        assert_eq!(
            check_connect(
                &[link(caller, ProviderKey::GOOGLE)],
                &identity(None, false),
                None
            ),
            Ok(())
        );
    }
}
