//! The operator's rules (docs/api.md#operator-api): who an admin key is in the audit trail,
//! which users a search names, how long a page is, what a forced unlink does, and what a
//! lock refuses.

use crate::disconnect::DisconnectRefused;
pub use crate::page_limit::PageLimit;
use crate::{Email, LinkedAccountId, ProviderKey, ProviderSubject, User};
use std::fmt;

/// The public name of an admin key in audit events: the first 8 hex digits of its SHA-256,
/// never the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AdminKeyId([u8; 4]);

impl AdminKeyId {
    /// The id of the key whose SHA-256 is `digest`.
    pub fn of_digest(digest: &[u8; 32]) -> Self {
        Self([digest[0], digest[1], digest[2], digest[3]])
    }

    /// Reads the 8 lowercase hex digits [`fmt::Display`] writes (a stored event).
    pub fn parse(text: &str) -> Option<Self> {
        if text.len() != 8 || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return None;
        }
        let mut bytes = [0u8; 4];
        for (index, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[index * 2..index * 2 + 2], 16).ok()?;
        }
        Some(Self(bytes))
    }
}

impl fmt::Display for AdminKeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// Which users a search names. Each is one indexed lookup or one index range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserFilter {
    /// Every user, by id.
    All,
    /// The user who claims this address (a verified provider email or a password account's
    /// email; an unverified provider email is found by its provider account instead).
    Email(Email),
    /// The users with a link of this provider.
    Provider(ProviderKey),
    /// The user of one provider account.
    Account(ProviderKey, ProviderSubject),
}

/// Why a search's parameters name no filter; the text names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadFilter(pub &'static str);

impl UserFilter {
    /// `email`, or `provider` with an optional `subject`, or nothing.
    pub fn from_parts(
        email: Option<Email>,
        provider: Option<ProviderKey>,
        subject: Option<ProviderSubject>,
    ) -> Result<Self, BadFilter> {
        match (email, provider, subject) {
            (None, None, None) => Ok(Self::All),
            (Some(email), None, None) => Ok(Self::Email(email)),
            (None, Some(provider), None) => Ok(Self::Provider(provider)),
            (None, Some(provider), Some(subject)) => Ok(Self::Account(provider, subject)),
            (_, None, Some(_)) => Err(BadFilter("subject: needs provider")),
            (Some(_), Some(_), _) => Err(BadFilter("email: not together with provider")),
        }
    }
}

/// What an operator's unlink does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unlink {
    pub link: LinkedAccountId,
    /// The link was the last way to log in and the operator forced it: the user is locked
    /// in the same transaction, so no account is left that nobody can enter or stop.
    pub lock: bool,
}

/// An operator's unlink: the user's rule ([`crate::disconnect::check_disconnect`]'s
/// answer), unless `force` overrides the last-login-method refusal, which then locks.
pub fn decide_unlink(
    rule: Result<LinkedAccountId, DisconnectRefused>,
    links: &[crate::LinkedAccount],
    provider: ProviderKey,
    force: bool,
) -> Result<Unlink, DisconnectRefused> {
    match rule {
        Ok(link) => Ok(Unlink { link, lock: false }),
        Err(DisconnectRefused::LastLoginMethod) if force => links
            .iter()
            .find(|link| link.provider == provider)
            .map(|link| Unlink {
                link: link.id,
                lock: true,
            })
            .ok_or(DisconnectRefused::NotLinked),
        Err(refused) => Err(refused),
    }
}

/// Which of `user`'s `links` a removal of `provider` takes away: the user's own rule
/// ([`crate::disconnect::check_disconnect`], with `usable` the enabled providers), unless
/// an operator's `force` overrides the last-login-method refusal ([`decide_unlink`]). A
/// user's own disconnect is the same removal without `force`.
pub fn decide_link_removal(
    user: &User,
    links: &[crate::LinkedAccount],
    provider: ProviderKey,
    usable: &[ProviderKey],
    force: bool,
) -> Result<Unlink, DisconnectRefused> {
    let rule = crate::disconnect::check_disconnect(user, links, provider, usable);
    decide_unlink(rule, links, provider, force)
}

/// A locked user signs in by no method and keeps no session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the user is locked")]
pub struct UserLocked;

/// Whether `user` may log in, refresh or use an access token.
pub fn check_not_locked(user: &User) -> Result<(), UserLocked> {
    if user.locked { Err(UserLocked) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LinkedAccount, UserId};
    use time::OffsetDateTime;

    #[test]
    fn a_key_id_is_the_first_four_bytes_in_hex_and_reads_back() {
        let mut digest = [0u8; 32];
        digest[..5].copy_from_slice(&[0x0a, 0xbc, 0xde, 0xf0, 0x99]);
        let id = AdminKeyId::of_digest(&digest);
        assert_eq!(id.to_string(), "0abcdef0");
        assert_eq!(AdminKeyId::parse("0abcdef0"), Some(id));
        for bad in ["0ABCDEF0", "0abcdef", "0abcdef00", "0abcdefg", "+bcdef00"] {
            assert_eq!(AdminKeyId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_filter_is_email_or_provider_with_an_optional_subject() {
        let email = || Some(Email::parse("ada@example.com").unwrap());
        let subject = || Some(ProviderSubject::parse("42").unwrap());
        let github = Some(ProviderKey::GITHUB);
        assert_eq!(
            UserFilter::from_parts(None, None, None),
            Ok(UserFilter::All)
        );
        assert!(matches!(
            UserFilter::from_parts(email(), None, None),
            Ok(UserFilter::Email(_))
        ));
        assert_eq!(
            UserFilter::from_parts(None, github, None),
            Ok(UserFilter::Provider(ProviderKey::GITHUB))
        );
        assert!(matches!(
            UserFilter::from_parts(None, github, subject()),
            Ok(UserFilter::Account(ProviderKey::GITHUB, _))
        ));
        assert!(UserFilter::from_parts(None, None, subject()).is_err());
        assert!(UserFilter::from_parts(email(), github, None).is_err());
        assert!(UserFilter::from_parts(email(), github, subject()).is_err());
    }

    #[test]
    fn a_page_holds_one_to_a_hundred_users() {
        assert_eq!(PageLimit::new(0), None);
        assert_eq!(PageLimit::new(1).map(PageLimit::get), Some(1));
        assert_eq!(PageLimit::new(100).map(PageLimit::get), Some(100));
        assert_eq!(PageLimit::new(101), None);
        assert_eq!(PageLimit::new(u64::MAX), None);
    }

    fn link(provider: ProviderKey) -> LinkedAccount {
        LinkedAccount {
            scopes: crate::Scopes::default(),
            id: LinkedAccountId::new(),
            user_id: UserId::new(),
            provider,
            subject: ProviderSubject::parse("1").unwrap(),
            email: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            disabled: false,
        }
    }

    #[test]
    fn force_removes_the_last_way_in_and_locks_and_nothing_else_changes() {
        let links = [link(ProviderKey::GITHUB)];
        let last = Err(DisconnectRefused::LastLoginMethod);
        assert_eq!(
            decide_unlink(last, &links, ProviderKey::GITHUB, false),
            Err(DisconnectRefused::LastLoginMethod)
        );
        assert_eq!(
            decide_unlink(last, &links, ProviderKey::GITHUB, true),
            Ok(Unlink {
                link: links[0].id,
                lock: true
            })
        );
        for force in [false, true] {
            assert_eq!(
                decide_unlink(Ok(links[0].id), &links, ProviderKey::GITHUB, force),
                Ok(Unlink {
                    link: links[0].id,
                    lock: false
                })
            );
            assert_eq!(
                decide_unlink(
                    Err(DisconnectRefused::NotLinked),
                    &links,
                    ProviderKey::APPLE,
                    force
                ),
                Err(DisconnectRefused::NotLinked)
            );
        }
    }
}
