//! The token cipher port: provider tokens are stored only in sealed form.

use social_login_domain::{SealedToken, SecretText};

/// Sealing or opening failed: a wrong key, a tampered value, an unknown key id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CipherError {
    #[error("could not seal the value")]
    Seal,
    #[error("could not open the sealed value")]
    Open,
}

/// Authenticated encryption of provider tokens at rest.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait TokenCipher: Send + Sync {
    fn seal(&self, plaintext: &SecretText) -> Result<SealedToken, CipherError>;
    fn open(&self, sealed: &SealedToken) -> Result<SecretText, CipherError>;
}
