//! Email addresses: stored as received, matched case-insensitively (CONTRACT §4).

use std::fmt;

/// An email address as a provider or a user gave it.
///
/// The original spelling is kept for storage and display; [`Email::normalized`] is the key
/// used for look-ups, so `Ada@Example.com` and `ada@example.com` are the same user.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Email {
    original: String,
}

/// The text is not a plausible email address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a valid email address")]
pub struct InvalidEmail;

impl Email {
    /// Longest address SMTP can carry (RFC 5321 path limit less the brackets).
    pub const MAX_LEN: usize = 254;

    /// Accepts `local@domain` with a non-empty local part and a domain containing no
    /// white space. Deliberately loose: providers are the authority on their addresses.
    pub fn parse(raw: &str) -> Result<Self, InvalidEmail> {
        let trimmed = raw.trim();
        if trimmed.len() > Self::MAX_LEN
            || trimmed.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(InvalidEmail);
        }
        match trimmed.rsplit_once('@') {
            Some((local, domain)) if !local.is_empty() && !domain.is_empty() => Ok(Self {
                original: trimmed.to_owned(),
            }),
            _ => Err(InvalidEmail),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.original
    }

    /// The look-up key: lowercase, so matching ignores case.
    pub fn normalized(&self) -> String {
        self.original.to_lowercase()
    }

    pub fn matches(&self, other: &Email) -> bool {
        self.normalized() == other.normalized()
    }
}

// Emails are personal data: keep them out of debug logs.
impl fmt::Debug for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Email([redacted])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_spelling_it_was_given() {
        let email = Email::parse(" Ada@Example.COM ").unwrap();
        assert_eq!(email.as_str(), "Ada@Example.COM");
        assert_eq!(email.normalized(), "ada@example.com");
    }

    #[test]
    fn matches_ignoring_case() {
        let a = Email::parse("Ada@Example.com").unwrap();
        let b = Email::parse("ada@example.COM").unwrap();
        assert!(a.matches(&b));
        assert!(!a.matches(&Email::parse("bob@example.com").unwrap()));
    }

    #[test]
    fn rejects_text_that_is_not_an_address() {
        for bad in [
            "",
            "ada",
            "@example.com",
            "ada@",
            "a da@example.com",
            "ada\0@example.com",
        ] {
            assert_eq!(Email::parse(bad), Err(InvalidEmail), "{bad:?}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(Email::parse(&long), Err(InvalidEmail));
    }

    #[test]
    fn accepts_relay_addresses_as_any_other() {
        let relay = Email::parse("x7k2p9q4m1@privaterelay.appleid.com").unwrap();
        assert_eq!(relay.as_str(), "x7k2p9q4m1@privaterelay.appleid.com");
    }
}
