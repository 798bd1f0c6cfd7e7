//! The eight provider keys of CONTRACT §1: the only `{provider}` path values.

use std::fmt;
use std::str::FromStr;

/// A supported identity provider. Any other path value is `OAuthProviderNotConfigured`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ProviderKey {
    Google,
    Github,
    Facebook,
    Microsoft,
    Linkedin,
    Discord,
    Twitter,
    Apple,
}

impl ProviderKey {
    pub const ALL: [ProviderKey; 8] = [
        Self::Google,
        Self::Github,
        Self::Facebook,
        Self::Microsoft,
        Self::Linkedin,
        Self::Discord,
        Self::Twitter,
        Self::Apple,
    ];

    /// The fixed lowercase key used in paths, configuration and storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Google => "google",
            Self::Github => "github",
            Self::Facebook => "facebook",
            Self::Microsoft => "microsoft",
            Self::Linkedin => "linkedin",
            Self::Discord => "discord",
            Self::Twitter => "twitter",
            Self::Apple => "apple",
        }
    }
}

impl fmt::Display for ProviderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The path value is not one of the eight keys (matching is exact: keys are lowercase).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider key")]
pub struct UnknownProvider;

impl FromStr for ProviderKey {
    type Err = UnknownProvider;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|key| key.as_str() == s)
            .ok_or(UnknownProvider)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_its_string() {
        for key in ProviderKey::ALL {
            assert_eq!(key.as_str().parse::<ProviderKey>(), Ok(key));
        }
    }

    #[test]
    fn keys_are_exact_and_lowercase() {
        assert!("GitHub".parse::<ProviderKey>().is_err());
        assert!("x".parse::<ProviderKey>().is_err());
        assert!(" github".parse::<ProviderKey>().is_err());
        assert_eq!("twitter".parse(), Ok(ProviderKey::Twitter));
    }
}
