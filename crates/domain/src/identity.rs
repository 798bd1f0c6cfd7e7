//! The normalised identity a provider asserts, whatever its own response looked like.

use crate::{Email, ProviderKey};
use std::fmt;

/// The provider's stable identifier of its account (GitHub numeric id, OIDC `sub`, ...).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ProviderSubject(String);

/// Subjects are opaque, non-empty and short; anything else is a provider fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("provider subject must be 1 to 255 characters")]
pub struct InvalidSubject;

impl ProviderSubject {
    pub fn parse(raw: impl Into<String>) -> Result<Self, InvalidSubject> {
        let raw = raw.into();
        if raw.is_empty() || raw.len() > 255 {
            return Err(InvalidSubject);
        }
        Ok(Self(raw))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ProviderSubject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProviderSubject({})", self.0)
    }
}

/// One account at one provider: what a link is found by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProviderAccount {
    pub provider: ProviderKey,
    pub subject: ProviderSubject,
}

/// A person's name as a provider gave it in parts (Apple's first `form_post` body).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PersonName {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

impl PersonName {
    /// "First Last", or whichever part exists; `None` when both are blank.
    pub fn full_name(&self) -> Option<String> {
        let parts: Vec<&str> = [&self.first_name, &self.last_name]
            .into_iter()
            .flatten()
            .map(|part| part.trim())
            .filter(|part| !part.is_empty())
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// What a provider asserts about the person who signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderIdentity {
    pub provider: ProviderKey,
    pub subject: ProviderSubject,
    /// `None` when the provider gave no email (X by default): the user still signs in.
    pub email: Option<Email>,
    /// Whether the provider vouches for the email. Decided per provider by its adapter.
    pub email_verified: bool,
    /// `None` when the provider supplied no name (Apple after the first login).
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    /// The organisation that manages the account, as the provider names it (Google's `hd`
    /// claim: the Workspace domain); `None` for a consumer account or a provider that names
    /// none. Only the sign-up policy reads it.
    pub hosted_domain: Option<String>,
}

impl ProviderIdentity {
    /// The email, but only when the provider vouches for it: the only kind that may link.
    pub fn verified_email(&self) -> Option<&Email> {
        self.email.as_ref().filter(|_| self.email_verified)
    }

    /// The account this identity is of.
    pub fn account(&self) -> ProviderAccount {
        ProviderAccount {
            provider: self.provider,
            subject: self.subject.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_name_joins_the_parts_that_exist() {
        let both = PersonName {
            first_name: Some("Ada".into()),
            last_name: Some("Lovelace".into()),
        };
        assert_eq!(both.full_name().as_deref(), Some("Ada Lovelace"));
        let first = PersonName {
            first_name: Some("Ada".into()),
            last_name: Some("  ".into()),
        };
        assert_eq!(first.full_name().as_deref(), Some("Ada"));
        assert_eq!(PersonName::default().full_name(), None);
    }

    #[test]
    fn subject_must_be_present_and_bounded() {
        assert!(ProviderSubject::parse("").is_err());
        assert!(ProviderSubject::parse("x".repeat(256)).is_err());
        assert_eq!(ProviderSubject::parse("583231").unwrap().as_str(), "583231");
    }

    #[test]
    fn an_unverified_email_is_not_offered_for_linking() {
        let mut identity = ProviderIdentity {
            provider: ProviderKey::GITHUB,
            subject: ProviderSubject::parse("1").unwrap(),
            email: Some(Email::parse("ada@example.com").unwrap()),
            email_verified: false,
            full_name: None,
            avatar_url: None,
            hosted_domain: None,
        };
        assert!(identity.verified_email().is_none());
        identity.email_verified = true;
        assert!(identity.verified_email().is_some());
    }
}
