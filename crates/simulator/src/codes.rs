//! Authorization codes: random, single-use, short-lived, bound to what the authorize saw.

use crate::config::Provider;
use crate::lock::locked;
use crate::random;
use crate::users::SimUser;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What an authorization code stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub provider: Provider,
    pub client_id: String,
    /// The redirect URI the code was delivered to (the registered one if none was named).
    pub redirect_uri: String,
    pub code_challenge: Option<String>,
    /// `S256` or `plain`; `None` with a challenge means `plain` (RFC 7636 §4.3).
    pub code_challenge_method: Option<String>,
    pub scopes: Vec<String>,
    pub nonce: Option<String>,
    pub user: SimUser,
}

/// Why a code could not be redeemed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedeemError {
    /// Never issued, or already redeemed once.
    Unknown,
    Expired,
}

#[derive(Debug)]
struct Issued {
    grant: Grant,
    expires_at: Instant,
}

/// The codes waiting to be exchanged.
#[derive(Debug)]
pub struct CodeStore {
    ttl: Duration,
    codes: Mutex<HashMap<String, Issued>>,
}

impl CodeStore {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            codes: Mutex::new(HashMap::new()),
        }
    }

    /// Stores `grant` under a fresh code and returns the code.
    pub fn issue(&self, grant: Grant) -> String {
        let code = random::hex(20);
        let issued = Issued {
            grant,
            expires_at: Instant::now() + self.ttl,
        };
        locked(&self.codes).insert(code.clone(), issued);
        code
    }

    /// Removes the code and returns its grant. Removal happens whatever the outcome of the
    /// exchange, so a code is never usable twice (a failed attempt burns it too).
    pub fn redeem(&self, code: &str) -> Result<Grant, RedeemError> {
        let issued = locked(&self.codes)
            .remove(code)
            .ok_or(RedeemError::Unknown)?;
        if Instant::now() >= issued.expires_at {
            return Err(RedeemError::Expired);
        }
        Ok(issued.grant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> Grant {
        Grant {
            provider: Provider::Github,
            client_id: "client".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: None,
            code_challenge_method: None,
            scopes: vec![],
            nonce: None,
            user: SimUser::new("1", "ada"),
        }
    }

    #[test]
    fn a_code_can_be_redeemed_exactly_once() {
        let store = CodeStore::new(Duration::from_secs(600));
        let code = store.issue(grant());
        assert_eq!(store.redeem(&code), Ok(grant()));
        assert_eq!(store.redeem(&code), Err(RedeemError::Unknown));
    }

    #[test]
    fn an_unknown_code_is_refused() {
        let store = CodeStore::new(Duration::from_secs(600));
        store.issue(grant());
        assert_eq!(
            store.redeem("0123456789abcdef0123"),
            Err(RedeemError::Unknown)
        );
    }

    #[test]
    fn an_expired_code_is_refused() {
        let store = CodeStore::new(Duration::ZERO);
        let code = store.issue(grant());
        assert_eq!(store.redeem(&code), Err(RedeemError::Expired));
    }

    #[test]
    fn codes_are_random() {
        let store = CodeStore::new(Duration::from_secs(600));
        assert_ne!(store.issue(grant()), store.issue(grant()));
    }
}
