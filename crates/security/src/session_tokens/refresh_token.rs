//! The refresh token's format: its random secret, the family (session) it was issued in and
//! its expiry, under an HMAC-SHA256 keyed from `secret_key`.
//!
//! Only the SHA-256 of the secret is stored, and a rotation deletes the spent token's row.
//! The MAC is what still recognises a spent token when it comes back: the service issued it
//! in that family, and it is not the family's current token, so a copy exists (reuse). The
//! same approach as Keycloak's signed refresh tokens checked against the session's current
//! one. Tokens of the earlier format (the 32 random bytes alone) still work: they prove
//! nothing, so their rows are kept, marked used, until they expire.
//!
//! Layout, base64url without padding (102 characters): key id (4 bytes) | secret (32) |
//! family (16) | expiry, Unix seconds, big-endian (8) | MAC over everything before it,
//! truncated to 16 bytes.

use crate::keys::{KEY_ID_BYTES, KeyRing, Purpose};
use crate::random::ThreadRandomness;
use aws_lc_rs::hmac;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use social_login_domain::refresh::{PresentedRefresh, RefreshIssue, RefreshTokenHash};
use social_login_domain::{FamilyId, SecretText};
use social_login_ports::IssuedRefreshToken;
use social_login_ports::Randomness;
use subtle::ConstantTimeEq;
use time::OffsetDateTime;
use uuid::Uuid;

/// 256 bits of entropy, so a fast hash of the secret is safe to store.
const SECRET_BYTES: usize = 32;
const FAMILY_BYTES: usize = 16;
const EXPIRY_BYTES: usize = 8;
/// 128 bits of HMAC-SHA256: forging one is as hard as guessing a 128-bit key.
const MAC_BYTES: usize = 16;
const SIGNED_BYTES: usize = KEY_ID_BYTES + SECRET_BYTES + FAMILY_BYTES + EXPIRY_BYTES;
const TOKEN_BYTES: usize = SIGNED_BYTES + MAC_BYTES;
/// Base64url characters of a token of this format; anything longer is not one.
const TOKEN_CHARS: usize = (TOKEN_BYTES * 4).div_ceil(3);

/// Issues refresh tokens and reads presented ones.
pub(super) struct RefreshTokenFormat {
    keys: KeyRing<hmac::Key>,
}

impl RefreshTokenFormat {
    pub(super) fn new(current: &SecretText, previous: &[SecretText]) -> Self {
        let keys = KeyRing::derive(current, previous, Purpose::RefreshTokenMac, |key| {
            hmac::Key::new(hmac::HMAC_SHA256, key)
        });
        Self { keys }
    }

    /// A new random secret and its hash.
    ///
    /// # Panics
    /// If the operating system cannot seed the generator (see `ThreadRandomness`).
    pub(super) fn new_secret() -> IssuedRefreshToken {
        let mut secret = [0u8; SECRET_BYTES];
        ThreadRandomness.fill(&mut secret);
        IssuedRefreshToken {
            hash: hash_of(&secret),
            secret: SecretText::new(URL_SAFE_NO_PAD.encode(secret)),
        }
    }

    /// The token the client gets: `issued`'s secret in `issue`, signed with the current key.
    pub(super) fn value(&self, issued: &IssuedRefreshToken, issue: RefreshIssue) -> SecretText {
        let (key_id, key) = self.keys.current();
        let mut token = Vec::with_capacity(TOKEN_BYTES);
        token.extend_from_slice(key_id.as_bytes());
        let secret = URL_SAFE_NO_PAD.decode(issued.secret.expose());
        token.extend_from_slice(&secret.expect("a secret this format made decodes"));
        token.extend_from_slice(issue.family.as_uuid().as_bytes());
        token.extend_from_slice(&issue.expires_at.unix_timestamp().to_be_bytes());
        let mac = hmac::sign(key, &token);
        token.extend_from_slice(&mac.as_ref()[..MAC_BYTES]);
        SecretText::new(URL_SAFE_NO_PAD.encode(token))
    }

    /// What a presented token proves. A token of this format is found by its secret; it
    /// proves its family and expiry only with the MAC of a configured key, so dropping an
    /// old key from `previous_secret_keys` logs nobody out (the token then rotates as one of
    /// the earlier format). Anything else is hashed whole, as a token of the earlier format
    /// was: it finds its row if it is one, and nothing otherwise.
    pub(super) fn read(&self, presented: &str) -> PresentedRefresh {
        let token = (presented.len() == TOKEN_CHARS)
            .then(|| URL_SAFE_NO_PAD.decode(presented).ok())
            .flatten();
        let Some(token) = token.filter(|token| token.len() == TOKEN_BYTES) else {
            return hash_of(presented.as_bytes()).into();
        };
        let (signed, mac) = token.split_at(SIGNED_BYTES);
        let (key_id, rest) = signed.split_at(KEY_ID_BYTES);
        let (secret, rest) = rest.split_at(SECRET_BYTES);
        let (family, expiry) = rest.split_at(FAMILY_BYTES);
        PresentedRefresh {
            hash: hash_of(secret),
            issued_in: self
                .genuine(key_id, signed, mac)
                .then(|| issue_of(family, expiry))
                .flatten(),
        }
    }

    /// Whether `mac` is the MAC of `signed` under the configured key named `key_id`.
    fn genuine(&self, key_id: &[u8], signed: &[u8], mac: &[u8]) -> bool {
        let Ok(key_id) = <&[u8; KEY_ID_BYTES]>::try_from(key_id) else {
            return false;
        };
        self.keys.find_by_bytes(key_id).any(|key| {
            let expected = hmac::sign(key, signed);
            bool::from(expected.as_ref()[..MAC_BYTES].ct_eq(mac))
        })
    }
}

fn issue_of(family: &[u8], expiry: &[u8]) -> Option<RefreshIssue> {
    let family = FamilyId::from_uuid(Uuid::from_slice(family).ok()?);
    let expiry = i64::from_be_bytes(expiry.try_into().ok()?);
    let expires_at = OffsetDateTime::from_unix_timestamp(expiry).ok()?;
    Some(RefreshIssue { family, expires_at })
}

fn hash_of(bytes: &[u8]) -> RefreshTokenHash {
    RefreshTokenHash(Sha256::digest(bytes).into())
}
