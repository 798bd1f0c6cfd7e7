//! A password "hasher" that is fast and transparent, for tests only.

use async_trait::async_trait;
use social_login_domain::{PasswordHash, SecretText};
use social_login_ports::{HashError, PasswordHasher};

/// Hashes to `fake-hash$` + the password; verifies by recomputing.
pub struct FakeHasher;

fn fake_hash(password: &SecretText) -> String {
    format!("fake-hash${}", password.expose())
}

#[async_trait]
impl PasswordHasher for FakeHasher {
    async fn hash(&self, password: SecretText) -> Result<PasswordHash, HashError> {
        Ok(PasswordHash::new(fake_hash(&password)))
    }

    async fn verify(
        &self,
        password: SecretText,
        hash: Option<PasswordHash>,
    ) -> Result<bool, HashError> {
        Ok(hash.is_some_and(|hash| hash.as_str() == fake_hash(&password)))
    }
}
