//! Access tokens the simulated providers issued, and what each one grants.

use crate::config::Provider;
use crate::lock::locked;
use crate::random;
use crate::users::SimUser;
use std::collections::HashMap;
use std::sync::Mutex;

/// What a token grants: the user as they were when it was issued, and the scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedToken {
    pub provider: Provider,
    pub client_id: String,
    pub scopes: Vec<String>,
    pub user: SimUser,
}

impl IssuedToken {
    pub fn has_any_scope(&self, wanted: &[&str]) -> bool {
        self.scopes
            .iter()
            .any(|scope| wanted.contains(&scope.as_str()))
    }
}

/// Live tokens, looked up by value.
#[derive(Debug, Default)]
pub struct TokenStore {
    tokens: Mutex<HashMap<String, IssuedToken>>,
}

impl TokenStore {
    /// Issues a token `prefix` + 36 random characters (GitHub: `gho_`).
    pub fn issue(&self, prefix: &str, grant: IssuedToken) -> String {
        self.issue_sized(prefix, 36, grant)
    }

    /// Issues a token `prefix` + `length` random characters.
    pub fn issue_sized(&self, prefix: &str, length: usize, grant: IssuedToken) -> String {
        let token = format!("{prefix}{}", random::base62(length));
        locked(&self.tokens).insert(token.clone(), grant);
        token
    }

    pub fn get(&self, token: &str) -> Option<IssuedToken> {
        locked(&self.tokens).get(token).cloned()
    }

    /// Every live token's value: what a test checks never leaks from the service.
    pub fn values(&self) -> Vec<String> {
        locked(&self.tokens).keys().cloned().collect()
    }

    /// Removes the token; `false` when it was not live.
    pub fn revoke(&self, token: &str) -> bool {
        locked(&self.tokens).remove(token).is_some()
    }

    /// Removes every token of the authorization `like` belongs to (provider, client, user).
    pub fn revoke_grant(&self, like: &IssuedToken) {
        locked(&self.tokens).retain(|_, t| {
            (t.provider, &t.client_id, &t.user.id)
                != (like.provider, &like.client_id, &like.user.id)
        });
    }
}
