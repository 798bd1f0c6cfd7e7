//! The enabled identity providers, by key.

use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use std::collections::HashMap;
use std::sync::Arc;

/// Holds one adapter per enabled provider. A key that is absent is "not configured",
/// whether it is unknown, left out of the configuration, or disabled.
#[derive(Clone, Default)]
pub struct ProviderRegistry {
    providers: HashMap<ProviderKey, Arc<dyn IdentityProvider>>,
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

    pub fn get(&self, key: ProviderKey) -> Option<&Arc<dyn IdentityProvider>> {
        self.providers.get(&key)
    }

    /// The enabled keys, in the fixed order of `ProviderKey::ALL`.
    pub fn keys(&self) -> Vec<ProviderKey> {
        ProviderKey::ALL
            .into_iter()
            .filter(|key| self.providers.contains_key(key))
            .collect()
    }
}
