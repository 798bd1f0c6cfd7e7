//! The one sealing layout of both sealers: `prefix ‖ nonce ‖ ciphertext ‖ tag` under
//! AES-256-GCM with a fresh random nonce, written into one buffer with the plaintext encrypted
//! where it was written.

use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{AeadInOut, Generate, Nonce};
use social_login_ports::CipherError;

/// 96-bit nonces: the size GCM is specified for (NIST SP 800-38D §8.2).
pub(crate) const NONCE_LEN: usize = 12;
pub(crate) const TAG_LEN: usize = 16;

/// Seals what `write_plaintext` appends (about `plaintext_len` bytes; `None` refuses) after
/// `prefix` and a fresh nonce, authenticating `aad`.
pub(crate) fn seal(
    cipher: &Aes256Gcm,
    prefix: &[u8],
    aad: &[u8],
    plaintext_len: usize,
    write_plaintext: impl FnOnce(&mut Vec<u8>) -> Option<()>,
) -> Result<Vec<u8>, CipherError> {
    let nonce = Nonce::<Aes256Gcm>::try_generate().map_err(|_| CipherError::Seal)?;
    let sealed_start = prefix.len() + NONCE_LEN;
    let mut blob = Vec::with_capacity(sealed_start + plaintext_len + TAG_LEN);
    blob.extend_from_slice(prefix);
    blob.extend_from_slice(&nonce);
    write_plaintext(&mut blob).ok_or(CipherError::Seal)?;
    let tag = cipher
        .encrypt_inout_detached(&nonce, aad, (&mut blob[sealed_start..]).into())
        .map_err(|_| CipherError::Seal)?;
    blob.extend_from_slice(&tag);
    Ok(blob)
}
