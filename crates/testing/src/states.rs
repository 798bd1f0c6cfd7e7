//! An in-memory state sealer and spent-id store.

use async_trait::async_trait;
use social_login_domain::{OAuthState, Spend, StateId, StateToken};
use social_login_ports::{CipherError, StateSealer, StateStore, StateStoreError};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use time::OffsetDateTime;

/// Hands out numbered opaque values (`fake-state-0000000001`, …: deterministic) and opens
/// only those it handed out, like a real sealer opens only what its key sealed.
#[derive(Default)]
pub struct FakeStateSealer {
    sealed: Mutex<HashMap<String, OAuthState>>,
}

impl FakeStateSealer {
    /// The state behind a value, for assertions.
    pub fn peek(&self, token: &str) -> Option<OAuthState> {
        self.sealed.lock().unwrap().get(token).cloned()
    }
}

impl StateSealer for FakeStateSealer {
    fn seal(&self, state: &OAuthState) -> Result<StateToken, CipherError> {
        let mut sealed = self.sealed.lock().unwrap();
        let token = StateToken::parse(&format!("fake-state-{:010}", sealed.len() + 1))
            .map_err(|_| CipherError::Seal)?;
        sealed.insert(token.as_str().to_owned(), state.clone());
        Ok(token)
    }

    fn open(&self, token: &StateToken) -> Option<OAuthState> {
        self.peek(token.as_str())
    }
}

/// Spent ids in a set; `spend` is one insert under the lock, as atomic as the real stores.
/// Expiry is left to the domain, which the port allows.
#[derive(Default)]
pub struct FakeStateStore {
    spent: Mutex<HashSet<StateId>>,
}

impl FakeStateStore {
    pub fn is_spent(&self, id: StateId) -> bool {
        self.spent.lock().unwrap().contains(&id)
    }

    pub fn spent_count(&self) -> usize {
        self.spent.lock().unwrap().len()
    }
}

#[async_trait]
impl StateStore for FakeStateStore {
    async fn spend(
        &self,
        id: StateId,
        _expires_at: OffsetDateTime,
    ) -> Result<Spend, StateStoreError> {
        Ok(if self.spent.lock().unwrap().insert(id) {
            Spend::First
        } else {
            Spend::Again
        })
    }

    async fn ping(&self) -> Result<(), StateStoreError> {
        Ok(())
    }
}
