//! A reversible token "cipher" whose output visibly differs from its input.

use social_login_domain::{SealedToken, SecretText};
use social_login_ports::{CipherError, TokenCipher};

const PREFIX: &str = "sealed:";

/// Seals as `sealed:` + the reversed text, so a test can prove that what was stored is not
/// the plaintext, and still open it to prove it is the right token.
pub struct ReversingCipher;

impl TokenCipher for ReversingCipher {
    fn seal(&self, plaintext: &SecretText) -> Result<SealedToken, CipherError> {
        let reversed: String = plaintext.expose().chars().rev().collect();
        Ok(SealedToken::new(format!("{PREFIX}{reversed}")))
    }

    fn open(&self, sealed: &SealedToken) -> Result<SecretText, CipherError> {
        let reversed = sealed
            .as_str()
            .strip_prefix(PREFIX)
            .ok_or(CipherError::Open)?;
        Ok(SecretText::new(reversed.chars().rev().collect::<String>()))
    }
}
