//! Users of the service.

use crate::{Email, LinkedAccount, UserId};
use time::OffsetDateTime;

/// An argon2id hash in PHC string form. Not a secret in itself, but never shown either.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl PasswordHash {
    pub fn new(phc: impl Into<String>) -> Self {
        Self(phc.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

redacted_debug!(PasswordHash);

/// A user, stored or about to be. The service creates users unlocked; only an operator locks
/// one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub email: Option<Email>,
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    /// True only when the address came verified from a provider (docs/api.md#linking-rules).
    pub email_verified: bool,
    pub password_hash: Option<PasswordHash>,
    pub created_at: OffsetDateTime,
    /// Set by an operator: no login of any kind, no refresh, no access token works.
    pub locked: bool,
}

impl User {
    /// A user registering `email` with a password: unlocked, and the address unverified,
    /// since nobody has proven they own it yet (docs/api.md#linking-rules).
    pub fn with_password(
        id: UserId,
        email: Email,
        full_name: Option<String>,
        password_hash: PasswordHash,
        created_at: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            email: Some(email),
            full_name,
            avatar_url: None,
            email_verified: false,
            password_hash: Some(password_hash),
            created_at,
            locked: false,
        }
    }

    /// Whether `link` is the provider account this user registered through, which gave its
    /// email, name and avatar: a registration writes the user and its first link at one
    /// instant (`ProviderSignIn::plan`), and every later link is made at a later one. A
    /// password registration registered through none.
    pub fn registered_through(&self, link: &LinkedAccount) -> bool {
        !self.has_password() && link.user_id == self.id && link.created_at == self.created_at
    }

    /// Forgets the email, the name and the avatar its registering provider account gave
    /// ([`crate::plan::Write::ForgetProfile`]); the address is free again.
    pub fn forget_profile(&mut self) {
        self.email = None;
        self.email_verified = false;
        self.full_name = None;
        self.avatar_url = None;
    }

    pub fn has_password(&self) -> bool {
        self.password_hash.is_some()
    }

    /// The email this user claims: matched by later logins and registrations, and unique.
    /// A verified provider email or a password account's email claims the address; an
    /// unverified provider email is kept for display only (`None` here), so it can never
    /// block the real owner or be linked to (docs/api.md#linking-rules).
    pub fn claimed_email(&self) -> Option<&Email> {
        self.email
            .as_ref()
            .filter(|_| self.email_verified || self.has_password())
    }
}

/// Longest display name a user gives themselves, in characters.
pub const MAX_GIVEN_NAME_CHARS: usize = 200;

/// A display name the user typed is longer than [`MAX_GIVEN_NAME_CHARS`] or holds a control
/// character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("at most {MAX_GIVEN_NAME_CHARS} characters, no control characters")]
pub struct BadGivenName;

/// The display name a user typed (a password registration's `full_name`), trimmed; `None`
/// when there is nothing left.
pub fn given_name(raw: Option<String>) -> Result<Option<String>, BadGivenName> {
    let Some(name) = raw.map(|name| name.trim().to_owned()) else {
        return Ok(None);
    };
    if name.chars().count() > MAX_GIVEN_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(BadGivenName);
    }
    Ok(Some(name).filter(|name| !name.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_name_is_trimmed_and_an_empty_one_is_none() {
        assert_eq!(
            given_name(Some("  Ada L. ".into())),
            Ok(Some("Ada L.".into()))
        );
        assert_eq!(given_name(Some(" \t ".into())), Ok(None));
        assert_eq!(given_name(None), Ok(None));
    }

    #[test]
    fn a_given_name_too_long_or_with_a_control_character_is_refused() {
        let longest = "é".repeat(MAX_GIVEN_NAME_CHARS);
        assert_eq!(given_name(Some(longest.clone())), Ok(Some(longest.clone())));
        assert_eq!(given_name(Some(format!("{longest}é"))), Err(BadGivenName));
        assert_eq!(
            given_name(Some("Ada\u{0}Lovelace".into())),
            Err(BadGivenName)
        );
        assert_eq!(given_name(Some("Ada\nLovelace".into())), Err(BadGivenName));
    }

    fn new_user(verified: bool, password: bool) -> User {
        User {
            id: UserId::new(),
            email: Some(Email::parse("victim@example.com").unwrap()),
            full_name: None,
            avatar_url: None,
            email_verified: verified,
            password_hash: password.then(|| PasswordHash::new("$argon2id$test")),
            created_at: OffsetDateTime::UNIX_EPOCH,
            locked: false,
        }
    }

    #[test]
    fn an_unverified_provider_email_claims_nothing() {
        assert_eq!(new_user(false, false).claimed_email(), None);
    }

    #[test]
    fn a_verified_email_or_a_password_account_claims_its_address() {
        for (verified, password) in [(true, false), (false, true), (true, true)] {
            let user = new_user(verified, password);
            assert!(user.claimed_email().is_some(), "{verified} {password}");
        }
    }
}
