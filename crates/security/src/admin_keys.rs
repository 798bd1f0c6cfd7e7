//! Admin keys of the operator API (docs/api.md#operator-api): the configuration holds only
//! their SHA-256 (`"sha256:<hex>"`); a presented key is hashed and compared with every
//! configured hash in constant time, so neither its value nor which hash it is near leaks
//! through timing.

use crate::random::random_bytes;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use social_login_domain::AdminKeyId;
use std::fmt;
use subtle::ConstantTimeEq;

/// What a configured hash starts with.
pub const HASH_PREFIX: &str = "sha256:";
/// What a generated key starts with, so one found in a log or a repository is recognised.
pub const KEY_PREFIX: &str = "sla_";

/// The SHA-256 of an admin key, as configured.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct AdminKeyHash([u8; 32]);

/// A configured value that is not `sha256:` and 64 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("expected \"sha256:\" followed by 64 hex digits (`social-login gen-admin-key` prints one)")]
pub struct BadAdminKeyHash;

impl AdminKeyHash {
    pub fn parse(configured: &str) -> Result<Self, BadAdminKeyHash> {
        let hex = configured
            .strip_prefix(HASH_PREFIX)
            .ok_or(BadAdminKeyHash)?;
        let mut digest = [0u8; 32];
        hex::decode_to_slice(hex, &mut digest).map_err(|_| BadAdminKeyHash)?;
        Ok(Self(digest))
    }

    /// The hash of `key`.
    pub fn of(key: &str) -> Self {
        Self(Sha256::digest(key.as_bytes()).into())
    }

    /// Its public name in audit events.
    pub fn id(&self) -> AdminKeyId {
        AdminKeyId::of_digest(&self.0)
    }
}

impl fmt::Display for AdminKeyHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{HASH_PREFIX}{}", hex::encode(self.0))
    }
}

impl fmt::Debug for AdminKeyHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AdminKeyHash({})", self.id())
    }
}

/// The configured admin keys. Empty: the operator API is off.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdminKeys(Vec<AdminKeyHash>);

impl AdminKeys {
    pub fn new(hashes: Vec<AdminKeyHash>) -> Self {
        Self(hashes)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The id of the configured key `presented` is, or `None`. Every configured hash is
    /// compared, each in constant time, whichever matches.
    pub fn verify(&self, presented: &str) -> Option<AdminKeyId> {
        let hash = AdminKeyHash::of(presented);
        let mut matched = subtle::Choice::from(0);
        for known in &self.0 {
            matched |= known.0.ct_eq(&hash.0);
        }
        bool::from(matched).then(|| hash.id())
    }
}

/// A new admin key (`sla_` and 32 random bytes, base64url) and its configured hash.
pub fn generate_admin_key() -> (String, AdminKeyHash) {
    let key = format!(
        "{KEY_PREFIX}{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<32>())
    );
    let hash = AdminKeyHash::of(&key);
    (key, hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_verifies_against_its_printed_hash_only() {
        let (key, hash) = generate_admin_key();
        assert!(key.starts_with(KEY_PREFIX) && key.len() == KEY_PREFIX.len() + 43);
        let printed = hash.to_string();
        assert!(printed.starts_with("sha256:") && printed.len() == 7 + 64);
        let keys = AdminKeys::new(vec![AdminKeyHash::parse(&printed).unwrap()]);
        assert_eq!(keys.verify(&key), Some(hash.id()));
        assert_eq!(keys.verify(&format!("{key}x")), None);
        assert_eq!(keys.verify(""), None);
        assert_eq!(AdminKeys::default().verify(&key), None);
        let (other, _) = generate_admin_key();
        assert_ne!(key, other);
    }

    #[test]
    fn any_of_several_keys_verifies_with_its_own_id() {
        let (one, first) = generate_admin_key();
        let (two, second) = generate_admin_key();
        let keys = AdminKeys::new(vec![first, second]);
        assert_eq!(keys.verify(&one), Some(first.id()));
        assert_eq!(keys.verify(&two), Some(second.id()));
    }

    #[test]
    fn a_hash_must_be_sha256_and_64_hex_digits() {
        let hex = "ab".repeat(32);
        assert!(AdminKeyHash::parse(&format!("sha256:{hex}")).is_ok());
        for bad in [
            hex.clone(),
            format!("sha512:{hex}"),
            format!("sha256:{}", &hex[1..]),
            format!("sha256:{}zz", &hex[2..]),
            format!("sha256:{hex}00"),
        ] {
            assert_eq!(AdminKeyHash::parse(&bad), Err(BadAdminKeyHash), "{bad}");
        }
    }

    #[test]
    fn the_key_id_is_the_first_eight_hex_digits_of_the_hash() {
        let hash = AdminKeyHash::of("sla_test");
        assert!(hash.to_string()[7..].starts_with(&hash.id().to_string()));
        assert!(!format!("{hash:?}").contains(&hash.to_string()[7..20]));
    }
}
