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

/// A token held by value, and whether the expiry control ended it: an expired token is kept
/// so that tests can still look for its value where it must not leak.
#[derive(Debug)]
struct Held {
    grant: IssuedToken,
    expired: bool,
}

/// Issued tokens, looked up by value.
#[derive(Debug, Default)]
pub struct TokenStore {
    tokens: Mutex<HashMap<String, Held>>,
}

impl TokenStore {
    /// Issues a token `prefix` + 36 random characters (GitHub: `gho_`).
    pub fn issue(&self, prefix: &str, grant: IssuedToken) -> String {
        self.issue_sized(prefix, 36, grant)
    }

    /// Issues a token `prefix` + `length` random characters.
    pub fn issue_sized(&self, prefix: &str, length: usize, grant: IssuedToken) -> String {
        let token = format!("{prefix}{}", random::base62(length));
        let held = Held {
            grant,
            expired: false,
        };
        locked(&self.tokens).insert(token.clone(), held);
        token
    }

    /// What a live (issued, not revoked, not expired) token grants.
    pub fn get(&self, token: &str) -> Option<IssuedToken> {
        let tokens = locked(&self.tokens);
        let held = tokens.get(token).filter(|held| !held.expired)?;
        Some(held.grant.clone())
    }

    /// What an unrevoked token grants, expired or not: a revocation still ends an expired
    /// token's grant.
    pub fn issued(&self, token: &str) -> Option<IssuedToken> {
        locked(&self.tokens)
            .get(token)
            .map(|held| held.grant.clone())
    }

    /// Removes a live token when `wanted` accepts what it grants, in one step: of two
    /// requests racing for a single-use token, one gets it.
    pub fn take_if(
        &self,
        token: &str,
        wanted: impl FnOnce(&IssuedToken) -> bool,
    ) -> Option<IssuedToken> {
        let mut tokens = locked(&self.tokens);
        let live = tokens.get(token).filter(|held| !held.expired)?;
        if !wanted(&live.grant) {
            return None;
        }
        tokens.remove(token).map(|held| held.grant)
    }

    /// Every unrevoked token's value, expired ones included: what a test checks never
    /// leaks from the service.
    pub fn values(&self) -> Vec<String> {
        locked(&self.tokens).keys().cloned().collect()
    }

    /// Removes the token; `false` when it was not issued or already revoked.
    pub fn revoke(&self, token: &str) -> bool {
        locked(&self.tokens).remove(token).is_some()
    }

    /// Removes every token of the authorization `like` belongs to (provider, client, user).
    pub fn revoke_grant(&self, like: &IssuedToken) {
        let like = (like.provider, &like.client_id, &like.user.id);
        locked(&self.tokens).retain(|_, held| {
            let t = &held.grant;
            (t.provider, &t.client_id, &t.user.id) != like
        });
    }

    /// Removes every token.
    pub fn revoke_all(&self) {
        locked(&self.tokens).clear();
    }

    /// Ends every token issued so far; later ones live.
    pub fn expire_all(&self) {
        for held in locked(&self.tokens).values_mut() {
            held.expired = true;
        }
    }
}
