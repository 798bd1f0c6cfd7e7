//! Key derivation from `secret_key`: one HKDF-SHA256 key per purpose, and key rotation.
//!
//! The operator configures one root secret (plus the previous ones while rotating). Every
//! working key is derived from it with its own `info` label, so the cipher key and the
//! signing key are independent even though they share a root, and a key id lets a sealed
//! value or a token name the secret that made it without revealing anything about it.

use hkdf::Hkdf;
use sha2::Sha256;
use social_login_domain::SecretText;
use std::fmt::{self, Write as _};

/// Separates this service's derivations from any other use of the same secret.
const HKDF_SALT: &[u8] = b"social-login/v1/hkdf-salt";
const KEY_ID_INFO: &[u8] = b"social-login/v1/key-id";
/// Bytes of the key id fingerprint: 4 bytes = 8 hex characters.
pub const KEY_ID_BYTES: usize = 4;

/// What a derived key is for. Each purpose has its own HKDF `info` label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    TokenCipher,
    /// The Ed25519 seed of the access-token key pair. Its own label (not the former HS256
    /// key's `access-token`), so no HMAC key this service ever derived equals the seed.
    AccessTokenSigning,
    StateToken,
    /// The MAC that lets a refresh token prove its family and expiry.
    RefreshTokenMac,
}

impl Purpose {
    fn info(self) -> &'static [u8] {
        match self {
            Self::TokenCipher => b"social-login/v1/token-cipher",
            Self::AccessTokenSigning => b"social-login/v1/access-token-ed25519",
            Self::StateToken => b"social-login/v1/state-token",
            Self::RefreshTokenMac => b"social-login/v1/refresh-token-mac",
        }
    }
}

/// The public fingerprint of a secret key: 8 hex characters derived with HKDF under its own
/// label. It names the key in sealed values; it is not the key and does not
/// help to find it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeyId {
    hex: String,
    bytes: [u8; KEY_ID_BYTES],
}

impl KeyId {
    pub fn as_str(&self) -> &str {
        &self.hex
    }

    /// The fingerprint as raw bytes, for binary formats (a sealed state value).
    pub fn as_bytes(&self) -> &[u8; KEY_ID_BYTES] {
        &self.bytes
    }

    fn from_bytes(bytes: [u8; KEY_ID_BYTES]) -> Self {
        let mut hex = String::with_capacity(KEY_ID_BYTES * 2);
        for byte in bytes {
            // Writing to a String cannot fail.
            let _ = write!(hex, "{byte:02x}");
        }
        Self { hex, bytes }
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex)
    }
}

/// The key id of `secret`, e.g. to log which key is current at start-up.
pub fn key_id(secret: &SecretText) -> KeyId {
    let mut fingerprint = [0u8; KEY_ID_BYTES];
    expand(secret, KEY_ID_INFO, &mut fingerprint);
    KeyId::from_bytes(fingerprint)
}

/// The 256-bit key for `purpose` derived from `secret`.
pub(crate) fn derive_key(secret: &SecretText, purpose: Purpose) -> [u8; 32] {
    let mut key = [0u8; 32];
    expand(secret, purpose.info(), &mut key);
    key
}

fn expand(secret: &SecretText, info: &[u8], out: &mut [u8]) {
    let hkdf = Hkdf::<Sha256>::new(Some(HKDF_SALT), secret.expose().as_bytes());
    // Only fails for outputs longer than 255 * 32 bytes; ours are 32 bytes at most.
    hkdf.expand(info, out)
        .expect("HKDF-SHA256 output of at most 32 bytes is always valid");
}

/// The keys of one purpose: the current one (seals and signs) first, then the previous ones
/// (only open and verify). Every key is derived once, here, not per request.
pub(crate) struct KeyRing<K> {
    entries: Vec<(KeyId, K)>,
}

impl<K> KeyRing<K> {
    /// Derives the `purpose` key of `current` and of each `previous` secret, turning each
    /// into a ready-to-use `K` (a cipher instance, a signing key).
    pub(crate) fn derive(
        current: &SecretText,
        previous: &[SecretText],
        purpose: Purpose,
        make: impl Fn(&[u8; 32]) -> K,
    ) -> Self {
        let entries = std::iter::once(current)
            .chain(previous)
            .map(|secret| (key_id(secret), make(&derive_key(secret, purpose))))
            .collect();
        Self { entries }
    }

    /// The key that seals and signs new values.
    pub(crate) fn current(&self) -> (&KeyId, &K) {
        let (id, key) = &self.entries[0];
        (id, key)
    }

    /// Every key whose raw fingerprint is `id`, current first (see [`Self::find`]).
    pub(crate) fn find_by_bytes<'a>(
        &'a self,
        id: &'a [u8; KEY_ID_BYTES],
    ) -> impl Iterator<Item = &'a K> + 'a {
        self.entries
            .iter()
            .filter(move |(candidate, _)| candidate.as_bytes() == id)
            .map(|(_, key)| key)
    }

    /// Every key whose id is `id`, current first. Usually one; a 32-bit fingerprint can
    /// collide, so callers try each candidate rather than trusting the first.
    pub(crate) fn find<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a K> + 'a {
        self.entries
            .iter()
            .filter(move |(candidate, _)| candidate.as_str() == id)
            .map(|(_, key)| key)
    }
}

/// The key ids, never a key: what a cipher's or sealer's `Debug` shows (the ids appear in
/// every sealed value anyway).
impl<K> fmt::Debug for KeyRing<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids = self.entries.iter().map(|(id, _)| id.as_str());
        f.debug_list().entries(ids).finish()
    }
}

/// Test helper: `text` (a `Debug` output, an error message) shows neither `secret` nor any
/// key derived from it, in hex, base64 or as a Rust byte array.
#[cfg(test)]
pub(crate) fn assert_reveals_nothing_of(text: &str, secret: &SecretText) {
    use base64::Engine as _;
    assert!(!text.contains(secret.expose()), "{text} shows the secret");
    for purpose in [
        Purpose::TokenCipher,
        Purpose::AccessTokenSigning,
        Purpose::StateToken,
        Purpose::RefreshTokenMac,
    ] {
        let key = derive_key(secret, purpose);
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key);
        let array = format!("{:?}", &key[..4]);
        for shape in [&hex[..16], &b64[..16], array.trim_end_matches(']')] {
            assert!(!text.contains(shape), "{text} shows a derived key");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_id_is_eight_hex_chars_and_stable() {
        let secret = SecretText::new("a-root-secret-of-at-least-32-bytes!!");
        let id = key_id(&secret);
        assert_eq!(id.as_str().len(), 8);
        assert!(id.as_str().chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(id, key_id(&secret));
        assert_ne!(
            id,
            key_id(&SecretText::new("another-root-secret-of-32-bytes!!!"))
        );
    }

    #[test]
    fn each_purpose_gets_an_independent_key() {
        let secret = SecretText::new("a-root-secret-of-at-least-32-bytes!!");
        let cipher = derive_key(&secret, Purpose::TokenCipher);
        let access = derive_key(&secret, Purpose::AccessTokenSigning);
        assert_ne!(cipher, access);
        assert_ne!(&cipher[..], &secret.expose().as_bytes()[..32]);
    }

    #[test]
    fn key_id_does_not_reveal_a_derived_key() {
        let secret = SecretText::new("a-root-secret-of-at-least-32-bytes!!");
        let id = key_id(&secret);
        for purpose in [Purpose::TokenCipher, Purpose::AccessTokenSigning] {
            let key = derive_key(&secret, purpose);
            let prefix: String = key[..4].iter().map(|b| format!("{b:02x}")).collect();
            assert_ne!(id.as_str(), prefix);
        }
    }

    #[test]
    fn the_ring_finds_current_and_previous_keys_by_id() {
        let current = SecretText::new("current-secret-of-at-least-32-bytes!");
        let old = SecretText::new("old-secret-of-at-least-32-bytes!!!!!");
        let ring = KeyRing::derive(
            &current,
            std::slice::from_ref(&old),
            Purpose::TokenCipher,
            |k| *k,
        );
        assert_eq!(ring.current().0, &key_id(&current));
        let old_id = key_id(&old);
        let found: Vec<_> = ring.find(old_id.as_str()).collect();
        assert_eq!(found, vec![&derive_key(&old, Purpose::TokenCipher)]);
        assert_eq!(ring.find("00000000").count(), 0);
    }
}
