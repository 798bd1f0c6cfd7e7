//! How a session began: the login that started it, so that a provider's signal can end the
//! sessions that provider's account logged in and leave the others (docs/api.md, "Signals
//! from providers").

use crate::ProviderKey;
use std::fmt;

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
}

impl fmt::Display for LoginMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
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
