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
        let token = format!("{prefix}{}", random::base62(36));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> IssuedToken {
        IssuedToken {
            provider: Provider::Github,
            client_id: "c".into(),
            scopes: vec!["read:user".into()],
            user: SimUser::new("1", "ada"),
        }
    }

    #[test]
    fn an_issued_token_is_known_until_revoked() {
        let store = TokenStore::default();
        let token = store.issue("gho_", grant());
        assert!(token.starts_with("gho_") && token.len() == 40);
        assert_eq!(store.get(&token), Some(grant()));
        assert!(store.revoke(&token));
        assert_eq!(store.get(&token), None);
        assert!(!store.revoke(&token));
    }

    #[test]
    fn scope_checks_look_for_any_of_the_wanted_scopes() {
        assert!(grant().has_any_scope(&["user", "read:user"]));
        assert!(!grant().has_any_scope(&["user:email"]));
    }
}
