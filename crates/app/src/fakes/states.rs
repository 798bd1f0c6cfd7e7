//! An in-memory state store whose `take` is a single map `remove`.

use async_trait::async_trait;
use social_login_domain::{OAuthState, StateToken};
use social_login_ports::{StateStore, StateStoreError};
use std::collections::HashMap;
use std::sync::Mutex;

/// Keeps issued states until taken. Expiry is left to the domain, which the port allows.
#[derive(Default)]
pub struct FakeStateStore {
    states: Mutex<HashMap<StateToken, OAuthState>>,
}

impl FakeStateStore {
    /// The stored state of `token`, without taking it.
    pub fn peek(&self, token: &str) -> Option<OAuthState> {
        let token = StateToken::parse(token).ok()?;
        self.states.lock().unwrap().get(&token).cloned()
    }

    pub fn stored_count(&self) -> usize {
        self.states.lock().unwrap().len()
    }
}

#[async_trait]
impl StateStore for FakeStateStore {
    async fn put(&self, state: OAuthState) -> Result<(), StateStoreError> {
        self.states
            .lock()
            .unwrap()
            .insert(state.token.clone(), state);
        Ok(())
    }

    async fn take(&self, token: &StateToken) -> Result<Option<OAuthState>, StateStoreError> {
        Ok(self.states.lock().unwrap().remove(token))
    }

    async fn ping(&self) -> Result<(), StateStoreError> {
        Ok(())
    }
}
