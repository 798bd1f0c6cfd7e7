//! `AeadStateSealer`: the whole OAuth state sealed into the `state` value with AES-256-GCM
//! under a key derived from `secret_key`, so authorize stores nothing.
//!
//! Wire form, base64url without padding:
//! `version (1) ‖ key id (4) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`; the version and key id
//! are authenticated data, the plaintext is [`layout`]. A sealer bound to an epoch
//! ([`AeadStateSealer::bound_to_epoch`]) also authenticates the epoch, which is not sent:
//! only a sealer of the same epoch opens its values.

mod layout;
mod link_layout;
#[cfg(test)]
mod tests;

use crate::aead_blob::{self, NONCE_LEN, TAG_LEN};
use crate::keys::{KEY_ID_BYTES, KeyRing, Purpose};
use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{Aead, Key, KeyInit, Nonce, Payload};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use social_login_domain::link_offer::{LinkOffer, MAX_LINK_TOKEN_LEN};
use social_login_domain::state::MAX_STATE_TOKEN_LEN;
use social_login_domain::{OAuthState, SecretText, StateToken};
use social_login_ports::{CipherError, StateSealer};

/// Bumped when the layout changes; an unknown version does not open.
const VERSION: u8 = 1;
/// The first byte of a link token: never a state value's version, so neither opens as the
/// other (the byte is authenticated with the rest of the header).
const LINK_VERSION: u8 = b'L';
const HEADER_LEN: usize = 1 + KEY_ID_BYTES;

/// Seals state values under the current key; opens those of the current and previous keys,
/// so a `secret_key` rotation does not break logins in flight.
#[derive(derive_more::Debug)]
pub struct AeadStateSealer {
    keys: KeyRing<Aes256Gcm>,
    /// Authenticated with every value, never sent; `None` when not bound to an epoch.
    #[debug(skip)]
    epoch: Option<[u8; EPOCH_BYTES]>,
}

/// Bytes of an epoch: 128 random bits, so two processes never share one.
pub const EPOCH_BYTES: usize = 16;

impl AeadStateSealer {
    pub fn new(current: &SecretText, previous: &[SecretText]) -> Self {
        let keys = KeyRing::derive(current, previous, Purpose::StateToken, |key| {
            Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key))
        });
        Self { keys, epoch: None }
    }

    /// Opens only values sealed under this same `epoch`. With an in-process state store the
    /// spent ids die with the process, so each process takes a random epoch of its own: a
    /// value minted before a restart (spent or not) no longer opens after it, and cannot be
    /// replayed against a store that has forgotten it.
    pub fn bound_to_epoch(mut self, epoch: [u8; EPOCH_BYTES]) -> Self {
        self.epoch = Some(epoch);
        self
    }

    /// The authenticated data of a value with this `header`: the header, then the epoch
    /// (on the stack: sealing is on every authorize).
    fn associated_data(&self, header: &[u8]) -> AssociatedData {
        let mut data = AssociatedData {
            bytes: [0; HEADER_LEN + EPOCH_BYTES],
            len: HEADER_LEN,
        };
        data.bytes[..HEADER_LEN].copy_from_slice(header);
        if let Some(epoch) = &self.epoch {
            data.bytes[HEADER_LEN..].copy_from_slice(epoch);
            data.len += EPOCH_BYTES;
        }
        data
    }
}

/// A value's header, then the sealer's epoch if it has one.
struct AssociatedData {
    bytes: [u8; HEADER_LEN + EPOCH_BYTES],
    len: usize,
}

impl AssociatedData {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl StateSealer for AeadStateSealer {
    fn seal(&self, state: &OAuthState) -> Result<StateToken, CipherError> {
        let token = self.seal_blob(VERSION, layout::CAPACITY, |blob| {
            layout::encode_into(state, blob)
        })?;
        StateToken::parse_owned(token).map_err(|_| CipherError::Seal)
    }

    fn open(&self, token: &StateToken) -> Option<OAuthState> {
        // A parsed token is at most MAX_STATE_TOKEN_LEN characters: decoding is bounded.
        debug_assert!(token.as_str().len() <= MAX_STATE_TOKEN_LEN);
        layout::decode(&self.open_blob(token.as_str(), VERSION)?)
    }

    fn seal_link(&self, offer: &LinkOffer) -> Result<String, CipherError> {
        let plaintext = link_layout::encode(offer).ok_or(CipherError::Seal)?;
        self.seal_blob(LINK_VERSION, plaintext.len(), |blob| {
            blob.extend_from_slice(&plaintext);
            Some(())
        })
    }

    fn open_link(&self, token: &str) -> Option<LinkOffer> {
        if token.len() > MAX_LINK_TOKEN_LEN {
            return None;
        }
        link_layout::decode(&self.open_blob(token, LINK_VERSION)?)
    }
}

impl AeadStateSealer {
    /// A value whose header is `version` and the current key's id, sealing what
    /// `write_plaintext` appends (about `plaintext_len` bytes), in base64url.
    fn seal_blob(
        &self,
        version: u8,
        plaintext_len: usize,
        write_plaintext: impl FnOnce(&mut Vec<u8>) -> Option<()>,
    ) -> Result<String, CipherError> {
        let (key_id, cipher) = self.keys.current();
        let mut header = [version; HEADER_LEN];
        header[1..].copy_from_slice(key_id.as_bytes());
        let aad = self.associated_data(&header);
        let blob = aead_blob::seal(
            cipher,
            &header,
            aad.as_slice(),
            plaintext_len,
            write_plaintext,
        )?;
        Ok(URL_SAFE_NO_PAD.encode(blob))
    }

    /// The plaintext of a value whose first byte is `version`, under any key of the ring.
    fn open_blob(&self, token: &str, version: u8) -> Option<Vec<u8>> {
        let blob = URL_SAFE_NO_PAD.decode(token).ok()?;
        if blob.len() < HEADER_LEN + NONCE_LEN + TAG_LEN || blob[0] != version {
            return None;
        }
        let (header, rest) = blob.split_at(HEADER_LEN);
        let (nonce, ciphertext) = rest.split_at(NONCE_LEN);
        let nonce = Nonce::<Aes256Gcm>::try_from(nonce).ok()?;
        let key_id: &[u8; KEY_ID_BYTES] = header[1..].try_into().ok()?;
        let aad = self.associated_data(header);
        self.keys.find_by_bytes(key_id).find_map(|cipher| {
            let payload = Payload {
                msg: ciphertext,
                aad: aad.as_slice(),
            };
            cipher.decrypt(&nonce, payload).ok()
        })
    }
}
