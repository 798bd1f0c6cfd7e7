//! Who may become a new user through a provider (docs/api.md#sign-up-policy).
//!
//! The rule applies to registration only: a provider account that is already linked signs
//! its user in, one that is auto-linked by email joins an existing user, and connect links
//! to the caller, so none of them is a sign-up and none is refused here.

use crate::ProviderIdentity;
use std::fmt;

/// An email domain an operator allows, `acme.com`: an ASCII host name of at least two
/// labels, each 1 to 63 of letters, digits and `-` (not first or last), at most 253 bytes;
/// kept in lowercase (`Acme.com` is `acme.com`: domains match ignoring case).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EmailDomain(String);

/// Why a configured domain is refused; the message says what is expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidEmailDomain {
    #[error("a domain only, without `@` (acme.com, not @acme.com)")]
    HasAt,
    #[error("a host name of at least two labels (acme.com)")]
    NotHostName,
}

impl EmailDomain {
    /// Longest host name DNS can carry.
    pub const MAX_LEN: usize = 253;

    pub fn parse(raw: &str) -> Result<Self, InvalidEmailDomain> {
        if raw.contains('@') {
            return Err(InvalidEmailDomain::HasAt);
        }
        let lower = raw.to_ascii_lowercase();
        let labels: Vec<&str> = lower.split('.').collect();
        if lower.len() > Self::MAX_LEN || labels.len() < 2 || !labels.iter().all(|l| is_label(l)) {
            return Err(InvalidEmailDomain::NotHostName);
        }
        Ok(Self(lower))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Exactly this domain, ignoring the case of ASCII letters: `mail.acme.com` is not
    /// `acme.com`, and `ACME.com` is.
    pub fn matches(&self, domain: &str) -> bool {
        self.0.eq_ignore_ascii_case(domain)
    }
}

fn is_label(label: &str) -> bool {
    let allowed = |byte: u8| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-';
    (1..=63).contains(&label.len())
        && label.bytes().all(allowed)
        && !label.starts_with('-')
        && !label.ends_with('-')
}

impl fmt::Debug for EmailDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EmailDomain({})", self.0)
    }
}

/// The sign-up rules of one provider (`allow_signup`, `allowed_email_domains`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignupPolicy {
    /// `false`: no provider account of this provider becomes a new user.
    pub allow_signup: bool,
    /// Non-empty: a new user needs a verified email in one of these domains.
    pub allowed_email_domains: Vec<EmailDomain>,
    /// The provider says which organisation manages the account (Google's `hd`): with
    /// domains set, a new user's hosted domain must be present and one of them too, so a
    /// consumer account carrying an organisation's address is not taken for a member.
    pub checks_hosted_domain: bool,
}

impl Default for SignupPolicy {
    /// Anyone may sign up: the policy of a provider whose table sets neither key.
    fn default() -> Self {
        Self {
            allow_signup: true,
            allowed_email_domains: Vec::new(),
            checks_hosted_domain: false,
        }
    }
}

/// A registration the policy refuses; nothing is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignupRefused {
    #[error("sign-up is not allowed through this provider")]
    NotAllowed,
    #[error("the email domain is not allowed to sign up")]
    EmailDomainNotAllowed,
}

impl SignupPolicy {
    /// Whether `identity` may become a new user through this provider.
    pub fn check_new_user(&self, identity: &ProviderIdentity) -> Result<(), SignupRefused> {
        if !self.allow_signup {
            return Err(SignupRefused::NotAllowed);
        }
        if self.allowed_email_domains.is_empty() {
            return Ok(());
        }
        // An unverified address proves nothing about who the person works for.
        let email_allowed = identity
            .verified_email()
            .and_then(|email| email.as_str().rsplit_once('@'))
            .is_some_and(|(_, domain)| self.allows(domain));
        let hosted_allowed = !self.checks_hosted_domain
            || identity
                .hosted_domain
                .as_deref()
                .is_some_and(|domain| self.allows(domain));
        if email_allowed && hosted_allowed {
            Ok(())
        } else {
            Err(SignupRefused::EmailDomainNotAllowed)
        }
    }

    fn allows(&self, domain: &str) -> bool {
        self.allowed_email_domains
            .iter()
            .any(|allowed| allowed.matches(domain))
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
