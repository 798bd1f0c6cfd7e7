//! `AesGcmTokenCipher`: provider tokens sealed with AES-256-GCM under a key derived from
//! `secret_key`, in the form `{key_id}.{base64url(nonce || ciphertext || tag)}`.

use crate::aead_blob::{self, NONCE_LEN, TAG_LEN};
use crate::keys::{KeyRing, Purpose};
use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{Aead, Key, KeyInit, Nonce, Payload};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use social_login_domain::{SealedToken, SecretText};
use social_login_ports::{CipherError, TokenCipher};

/// Authenticated encryption of provider tokens at rest.
///
/// A fresh random nonce per value: with 2^32 seals per key the chance of a repeat stays
/// below 2^-32 (NIST SP 800-38D §8.3), far beyond what one deployment stores. Values are
/// sealed under the current key and opened under the key their id names, so a rotated
/// `secret_key` still opens what the old one sealed.
#[derive(Debug)]
pub struct AesGcmTokenCipher {
    keys: KeyRing<Aes256Gcm>,
}

impl AesGcmTokenCipher {
    /// Derives the cipher keys of `current` (seals and opens) and `previous` (only opens).
    pub fn new(current: &SecretText, previous: &[SecretText]) -> Self {
        let keys = KeyRing::derive(current, previous, Purpose::TokenCipher, |key| {
            Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key))
        });
        Self { keys }
    }
}

impl TokenCipher for AesGcmTokenCipher {
    fn seal(&self, plaintext: &SecretText) -> Result<SealedToken, CipherError> {
        let (key_id, cipher) = self.keys.current();
        let message = plaintext.expose().as_bytes();
        // The key id is authenticated data: a value cannot be relabelled to another key.
        let blob = aead_blob::seal(
            cipher,
            &[],
            key_id.as_str().as_bytes(),
            message.len(),
            |blob| {
                blob.extend_from_slice(message);
                Some(())
            },
        )?;
        // `key id.base64url(blob)`, written into one String of its final size.
        let mut sealed =
            String::with_capacity(key_id.as_str().len() + 1 + blob.len().div_ceil(3) * 4);
        sealed.push_str(key_id.as_str());
        sealed.push('.');
        URL_SAFE_NO_PAD.encode_string(&blob, &mut sealed);
        Ok(SealedToken::new(sealed))
    }

    fn open(&self, sealed: &SealedToken) -> Result<SecretText, CipherError> {
        let (key_id, encoded) = sealed.as_str().split_once('.').ok_or(CipherError::Open)?;
        let blob = URL_SAFE_NO_PAD
            .decode(encoded)
            .map_err(|_| CipherError::Open)?;
        if blob.len() < NONCE_LEN + TAG_LEN {
            return Err(CipherError::Open);
        }
        let (nonce, ciphertext) = blob.split_at(NONCE_LEN);
        let nonce = Nonce::<Aes256Gcm>::try_from(nonce).map_err(|_| CipherError::Open)?;
        let plaintext = self
            .keys
            .find(key_id)
            .find_map(|cipher| {
                let payload = Payload {
                    msg: ciphertext,
                    aad: key_id.as_bytes(),
                };
                cipher.decrypt(&nonce, payload).ok()
            })
            .ok_or(CipherError::Open)?;
        String::from_utf8(plaintext)
            .map(SecretText::new)
            .map_err(|_| CipherError::Open)
    }
}

#[cfg(test)]
mod tests;
