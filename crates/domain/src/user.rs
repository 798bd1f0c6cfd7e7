//! Users of the service.

use crate::{Email, UserId};
use std::fmt;
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

impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordHash([redacted])")
    }
}

/// A stored user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub email: Option<Email>,
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    /// True only when the address came verified from a provider (CONTRACT §4).
    pub email_verified: bool,
    pub password_hash: Option<PasswordHash>,
    pub created_at: OffsetDateTime,
}

impl User {
    pub fn has_password(&self) -> bool {
        self.password_hash.is_some()
    }
}

/// A user about to be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    pub id: UserId,
    pub email: Option<Email>,
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    pub email_verified: bool,
    pub password_hash: Option<PasswordHash>,
    pub created_at: OffsetDateTime,
}

impl NewUser {
    pub fn into_user(self) -> User {
        User {
            id: self.id,
            email: self.email,
            full_name: self.full_name,
            avatar_url: self.avatar_url,
            email_verified: self.email_verified,
            password_hash: self.password_hash,
            created_at: self.created_at,
        }
    }
}
