//! The enabled identity providers, by key, and how each one's native sign-in treats the
//! nonce.

use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Holds one adapter per enabled provider. A key that is absent is "not configured",
/// whether it is unknown, left out of the configuration, or disabled.
#[derive(Clone, Default)]
pub struct ProviderRegistry {
    providers: HashMap<ProviderKey, Arc<dyn IdentityProvider>>,
    /// Providers whose native sign-in may come without a nonce (`id_token_nonce =
    /// "optional"`); every other one requires it.
    nonce_optional: HashSet<ProviderKey>,
}

impl ProviderRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces the adapter for its own key.
    pub fn with(mut self, provider: Arc<dyn IdentityProvider>) -> Self {
        self.providers.insert(provider.key(), provider);
        self
    }

    /// Lets native sign-ins of `key` come without a nonce, for apps whose provider SDK
    /// cannot pass one; a token that carries a nonce still needs it.
    pub fn with_optional_nonce(mut self, key: ProviderKey) -> Self {
        self.nonce_optional.insert(key);
        self
    }

    /// Whether a native sign-in of `key` must carry a nonce (the default).
    pub fn requires_nonce(&self, key: ProviderKey) -> bool {
        !self.nonce_optional.contains(&key)
    }

    pub fn get(&self, key: ProviderKey) -> Option<&Arc<dyn IdentityProvider>> {
        self.providers.get(&key)
    }

    /// The enabled keys, in the fixed order of `ProviderKey::BUILT_IN`.
    pub fn keys(&self) -> Vec<ProviderKey> {
        ProviderKey::BUILT_IN
            .into_iter()
            .filter(|key| self.providers.contains_key(key))
            .collect()
    }
}
