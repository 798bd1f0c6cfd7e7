//! `Argon2PasswordHasher`: argon2id PHC strings, computed off the async worker threads.

use argon2::password_hash::phc::PasswordHash as PhcHash;
use argon2::password_hash::{Error as Argon2Error, PasswordHasher as _, PasswordVerifier as _};
use argon2::{Algorithm, Argon2, Params, Version};
use async_trait::async_trait;
use social_login_domain::{PasswordHash, SecretText};
use social_login_ports::{HashError, PasswordHasher};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// OWASP Password Storage Cheat Sheet, argon2id option 2: 19 MiB, 2 passes, 1 lane.
pub const OWASP_MEMORY_KIB: u32 = 19 * 1024;
pub const OWASP_ITERATIONS: u32 = 2;
pub const OWASP_PARALLELISM: u32 = 1;

/// Hashes passwords with argon2id into PHC strings (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`),
/// with a fresh random salt each time.
///
/// Hashing takes tens of milliseconds of CPU on purpose, so it runs in
/// `spawn_blocking`: on the async workers it would stall every other request.
#[derive(Clone)]
pub struct Argon2PasswordHasher {
    inner: Arc<Inner>,
}

struct Inner {
    params: Params,
    /// Hash of a random password, made on first need, so that a login for an unknown
    /// email spends the same work as one for a known email.
    dummy: OnceLock<String>,
}

impl Argon2PasswordHasher {
    /// The OWASP parameters: m=19456 KiB, t=2, p=1.
    pub fn new() -> Self {
        Self::with_params(OWASP_MEMORY_KIB, OWASP_ITERATIONS, OWASP_PARALLELISM)
            .expect("the OWASP argon2 parameters are valid")
    }

    /// Custom cost parameters, e.g. cheap ones in tests (`with_params(8, 1, 1)`).
    /// Fails for values argon2 refuses (memory below 8 KiB per lane, zero passes or lanes).
    pub fn with_params(
        memory_kib: u32,
        iterations: u32,
        parallelism: u32,
    ) -> Result<Self, HashError> {
        let params = Params::new(memory_kib, iterations, parallelism, None)
            .map_err(|e| HashError(format!("invalid argon2 parameters: {e}")))?;
        Ok(Self {
            inner: Arc::new(Inner {
                params,
                dummy: OnceLock::new(),
            }),
        })
    }
}

impl Default for Argon2PasswordHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Argon2PasswordHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.inner.params;
        f.debug_struct("Argon2PasswordHasher")
            .field("memory_kib", &p.m_cost())
            .field("iterations", &p.t_cost())
            .field("parallelism", &p.p_cost())
            .finish()
    }
}

impl Inner {
    fn argon2(&self) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, self.params.clone())
    }

    fn hash(&self, password: &[u8]) -> Result<String, HashError> {
        self.argon2()
            .hash_password(password)
            .map(|hash| hash.to_string())
            .map_err(|e| HashError(format!("argon2 hashing failed: {e}")))
    }

    fn verify(&self, password: &[u8], phc: &str) -> Result<bool, HashError> {
        let parsed = PhcHash::new(phc)
            .map_err(|_| HashError("the stored password hash is not a PHC string".into()))?;
        // The parameters come from the stored hash, so hashes made with older costs still
        // verify after the defaults change.
        match self.argon2().verify_password(password, &parsed) {
            Ok(()) => Ok(true),
            Err(Argon2Error::PasswordInvalid) => Ok(false),
            Err(e) => Err(HashError(format!("argon2 verification failed: {e}"))),
        }
    }

    fn dummy_hash(&self) -> Result<&str, HashError> {
        if let Some(dummy) = self.dummy.get() {
            return Ok(dummy);
        }
        let fresh = self.hash(crate::random::random_url_token(32).as_bytes())?;
        Ok(self.dummy.get_or_init(|| fresh))
    }
}

#[async_trait]
impl PasswordHasher for Argon2PasswordHasher {
    async fn hash(&self, password: SecretText) -> Result<PasswordHash, HashError> {
        let inner = Arc::clone(&self.inner);
        let phc = tokio::task::spawn_blocking(move || inner.hash(password.expose().as_bytes()))
            .await
            .map_err(|_| HashError("the hashing task did not complete".into()))??;
        Ok(PasswordHash::new(phc))
    }

    async fn verify(
        &self,
        password: SecretText,
        hash: Option<PasswordHash>,
    ) -> Result<bool, HashError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || match hash {
            Some(hash) => inner.verify(password.expose().as_bytes(), hash.as_str()),
            None => {
                // Same work as a real check, then refuse whatever the outcome.
                let dummy = inner.dummy_hash()?;
                inner.verify(password.expose().as_bytes(), dummy)?;
                Ok(false)
            }
        })
        .await
        .map_err(|_| HashError("the verification task did not complete".into()))?
    }
}

#[cfg(test)]
mod tests;
