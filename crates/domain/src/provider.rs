//! Provider keys: the `{provider}` path values. Eight are built in; an operator configures
//! more (docs/api.md#provider-keys), so a key is a validated name, not a closed list.

mod kind;

pub use kind::{ProviderKind, UnknownKind};

use std::fmt;
use std::str::FromStr;

/// Longest key: 32 bytes, which the storage columns hold.
const MAX_LEN: usize = 32;

/// A provider's key: `^[a-z][a-z0-9-]{1,31}$`. Whether a provider of that key is configured
/// and enabled is the service's question, not this type's.
///
/// Stored inline, so it stays `Copy` like the enum it replaced, and the built-in keys are
/// constants usable in `match` patterns. `bytes` comes first and is zero-padded, so the
/// derived order is alphabetical.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProviderKey {
    bytes: [u8; MAX_LEN],
    len: u8,
}

/// The path value cannot be a provider key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a provider key: 2 to 32 characters, a lowercase letter then lowercase letters, digits or '-'"
)]
pub struct InvalidProviderKey;

impl ProviderKey {
    pub const GOOGLE: Self = Self::known("google");
    pub const GITHUB: Self = Self::known("github");
    pub const FACEBOOK: Self = Self::known("facebook");
    pub const MICROSOFT: Self = Self::known("microsoft");
    pub const LINKEDIN: Self = Self::known("linkedin");
    pub const DISCORD: Self = Self::known("discord");
    pub const TWITTER: Self = Self::known("twitter");
    pub const APPLE: Self = Self::known("apple");

    /// The eight providers built into the service, in their documented order.
    pub const BUILT_IN: [Self; 8] = [
        Self::GOOGLE,
        Self::GITHUB,
        Self::FACEBOOK,
        Self::MICROSOFT,
        Self::LINKEDIN,
        Self::DISCORD,
        Self::TWITTER,
        Self::APPLE,
    ];

    /// The key, if `raw` is one.
    pub const fn parse(raw: &str) -> Result<Self, InvalidProviderKey> {
        let raw = raw.as_bytes();
        if raw.len() < 2 || raw.len() > MAX_LEN || !raw[0].is_ascii_lowercase() {
            return Err(InvalidProviderKey);
        }
        let mut bytes = [0; MAX_LEN];
        let mut i = 0;
        while i < raw.len() {
            let byte = raw[i];
            if !(byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-') {
                return Err(InvalidProviderKey);
            }
            bytes[i] = byte;
            i += 1;
        }
        Ok(Self {
            bytes,
            len: raw.len() as u8,
        })
    }

    /// A key written in the code: an invalid one fails the build.
    const fn known(raw: &str) -> Self {
        match Self::parse(raw) {
            Ok(key) => key,
            Err(_) => panic!("invalid built-in provider key"),
        }
    }

    /// The lowercase key used in paths, configuration and storage.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever stored (see `parse`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// One of the eight providers compiled into the service.
    pub fn is_built_in(&self) -> bool {
        Self::BUILT_IN.contains(self)
    }
}

impl fmt::Display for ProviderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for ProviderKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProviderKey({})", self.as_str())
    }
}

impl FromStr for ProviderKey {
    type Err = InvalidProviderKey;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_built_in_key_round_trips_through_its_string() {
        for key in ProviderKey::BUILT_IN {
            assert_eq!(key.as_str().parse::<ProviderKey>(), Ok(key));
            assert!(key.is_built_in());
        }
        assert_eq!(ProviderKey::TWITTER.as_str(), "twitter");
    }

    #[test]
    fn a_configured_key_is_a_key_but_not_a_built_in_one() {
        let acme: ProviderKey = "acme-sso".parse().unwrap();
        assert_eq!(acme.as_str(), "acme-sso");
        assert!(!acme.is_built_in());
        assert_eq!(format!("{acme:?}"), "ProviderKey(acme-sso)");
    }

    #[test]
    fn keys_are_lowercase_names_of_2_to_32_characters() {
        for bad in [
            "", "x", "GitHub", " github", "github ", "9lives", "-acme", "acme_sso", "acmé", "a/b",
            "a.b",
        ] {
            assert_eq!(
                bad.parse::<ProviderKey>(),
                Err(InvalidProviderKey),
                "{bad:?}"
            );
        }
        assert!("a".repeat(32).parse::<ProviderKey>().is_ok());
        assert!("a".repeat(33).parse::<ProviderKey>().is_err());
        assert!("k8s-sso-2".parse::<ProviderKey>().is_ok());
    }

    #[test]
    fn built_in_keys_work_as_match_patterns() {
        let label = |key: ProviderKey| match key {
            ProviderKey::GITHUB => "code hosting",
            ProviderKey::APPLE => "device maker",
            _ => "other",
        };
        assert_eq!(label(ProviderKey::GITHUB), "code hosting");
        assert_eq!(label("apple".parse().unwrap()), "device maker");
        assert_eq!(label("gitlab".parse().unwrap()), "other");
    }

    proptest! {
        #[test]
        fn keys_order_as_their_strings_do(a in "[a-z][a-z0-9-]{1,31}", b in "[a-z][a-z0-9-]{1,31}") {
            let (ka, kb): (ProviderKey, ProviderKey) = (a.parse().unwrap(), b.parse().unwrap());
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(ka == kb, a == b);
        }

        #[test]
        fn any_string_parses_only_if_it_matches_the_grammar(raw in "\\PC{0,40}") {
            let valid = raw.len() >= 2
                && raw.len() <= 32
                && raw.as_bytes()[0].is_ascii_lowercase()
                && raw.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            prop_assert_eq!(raw.parse::<ProviderKey>().is_ok(), valid);
            if let Ok(key) = raw.parse::<ProviderKey>() {
                prop_assert_eq!(key.as_str(), raw.as_str());
            }
        }
    }
}
