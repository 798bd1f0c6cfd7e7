//! Builders for the tests of the rules that look at a user and its links: this crate's unit
//! tests, and other crates' tests through the `fixtures` feature.

use crate::{
    Email, LinkedAccount, LinkedAccountId, PasswordHash, ProviderIdentity, ProviderKey,
    ProviderSubject, User, UserId,
};
use time::OffsetDateTime;

/// A user without email, with a password or not.
pub fn user(password: bool) -> User {
    User {
        id: UserId::new(),
        email: None,
        full_name: None,
        avatar_url: None,
        email_verified: false,
        password_hash: password.then(|| PasswordHash::new("$argon2id$...")),
        created_at: OffsetDateTime::UNIX_EPOCH,
        locked: false,
    }
}

/// `user`'s link to `provider`, the provider key as its subject.
pub fn link(user: &User, provider: ProviderKey) -> LinkedAccount {
    LinkedAccount {
        scopes: crate::Scopes::default(),
        id: LinkedAccountId::new(),
        user_id: user.id,
        provider,
        subject: ProviderSubject::parse(provider.as_str()).unwrap(),
        email: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
        disabled: false,
    }
}

/// `provider`'s identity of `subject` with `email` (vouched for or not), a name and an
/// avatar, in no organisation.
pub fn identity(
    provider: ProviderKey,
    subject: &str,
    email: Option<&str>,
    verified: bool,
) -> ProviderIdentity {
    ProviderIdentity {
        provider,
        subject: ProviderSubject::parse(subject).unwrap(),
        email: email.map(|e| Email::parse(e).unwrap()),
        email_verified: verified,
        full_name: Some("Ada Lovelace".into()),
        avatar_url: Some("https://avatars.test/ada.png".into()),
        hosted_domain: None,
    }
}

/// What a write records its events with in the tests: every type to the outbox, at `at`.
pub fn audit_at(at: OffsetDateTime) -> crate::AuditContext {
    let mut next = 0_u8;
    crate::AuditContext {
        origin: crate::Origin::default(),
        at,
        ids: crate::AuditContext::ids_at(at, || {
            next += 1;
            [next; 8]
        }),
        outbox: crate::EventSet::all(),
    }
}

/// [`audit_at`] the epoch.
pub fn audit() -> crate::AuditContext {
    audit_at(OffsetDateTime::UNIX_EPOCH)
}
