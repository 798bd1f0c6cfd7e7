//! Authorization codes: random, single-use, short-lived, bound to what the authorize saw.

use crate::config::Provider;
use crate::lock::locked;
use crate::pkce::Challenge;
use crate::random;
use crate::tokens::IssuedToken;
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
    pub pkce: Challenge,
    pub scopes: Vec<String>,
    pub nonce: Option<String>,
    pub user: SimUser,
}

impl Grant {
    /// What an access token issued for this grant grants.
    pub fn token(&self) -> IssuedToken {
        IssuedToken {
            provider: self.provider,
            client_id: self.client_id.clone(),
            scopes: self.scopes.clone(),
            user: self.user.clone(),
        }
    }
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
