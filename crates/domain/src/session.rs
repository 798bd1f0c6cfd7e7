//! How a session began: the login that started it, so that a provider's signal can end the
//! sessions that provider's account logged in and leave the others (docs/api.md, "Signals
//! from providers").

use crate::refresh::{RefreshIssue, RefreshTokenHash};
use crate::{FamilyId, ProviderKey, UserId};
use std::fmt;
use time::OffsetDateTime;

/// The login that started a session (a refresh-token family). Sessions from before the
/// service recorded it have none: only the whole-user actions (deletion, a disabled
/// account) end those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoginMethod {
    /// Email and password, or the registration that set them.
    Password,
    /// A provider login: the code flow's callback or a native id_token sign-in.
    Provider(ProviderKey),
}

impl LoginMethod {
    /// As stored with the session: `password`, or the provider key. No signal ever names
    /// `password`, so a configured provider of that name could not be mistaken for it in
    /// anything a signal does.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Password => "password",
            Self::Provider(key) => key.as_str(),
        }
    }

    /// What [`Self::as_str`] stored; `None` for text that names no method.
    pub fn from_stored(text: &str) -> Option<Self> {
        match text {
            "password" => Some(Self::Password),
            key => key.parse().ok().map(Self::Provider),
        }
    }
}

impl fmt::Display for LoginMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A new refresh-token family and its first token, for a user decided elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionStart {
    pub hash: RefreshTokenHash,
    pub family: FamilyId,
    pub token_expires_at: OffsetDateTime,
    pub family_expires_at: OffsetDateTime,
    /// When the login that starts this session happened: kept by every rotation, carried
    /// by every access token of the session (`auth_time`).
    pub auth_time: OffsetDateTime,
    /// The login that started it: a provider's signal ends the sessions its accounts began.
    pub began_with: LoginMethod,
}

impl SessionStart {
    /// What the first token proves of itself: its session and expiry.
    pub fn first_issue(&self) -> RefreshIssue {
        RefreshIssue {
            family: self.family,
            expires_at: self.token_expires_at,
        }
    }
}

/// A refresh token to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRefreshToken {
    pub hash: RefreshTokenHash,
    pub user_id: UserId,
    pub family: FamilyId,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_login_is_stored_as_its_key_and_a_password_login_as_password() {
        assert_eq!(LoginMethod::Password.as_str(), "password");
        for key in ProviderKey::BUILT_IN {
            assert_eq!(LoginMethod::Provider(key).as_str(), key.as_str());
        }
    }
}
