//! What a provider login does, and whether a connect may link (docs/api.md#linking-rules).
//!
//! These rules close the known account takeovers: an email only links two accounts when
//! linking is switched on *and* both sides have verified it, so nobody can pre-register a
//! victim's address, or sign in with an unverified provider email, and inherit the account.

use crate::signup::{SignupPolicy, SignupRefused};
use crate::{LinkedAccount, ProviderAccount, ProviderIdentity, User, UserId};

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
    account: &ProviderAccount,
    existing_link: Option<&LinkedAccount>,
) -> Result<ConnectDecision, ProviderAlreadyLinked> {
    match existing_link {
        Some(link) if link.user_id == caller => return Ok(ConnectDecision::Renew(link.id)),
        Some(_) => return Err(ProviderAlreadyLinked),
        None => {}
    }
    let caller_has_provider = caller_links
        .iter()
        .any(|link| link.provider == account.provider);
    if caller_has_provider {
        return Err(ProviderAlreadyLinked);
    }
    Ok(ConnectDecision::Link)
}

#[cfg(test)]
mod tests;
