//! The enabled identity providers, by key and in configuration order, how each one's
//! native sign-in treats the nonce, and who may sign up through each.

use social_login_domain::linking::Linking;
use social_login_domain::{ProviderKey, SignupPolicy};
use social_login_ports::{IdentityProvider, ProviderInfo};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Holds one adapter per enabled provider. A key that is absent is "not configured",
/// whether it is unknown, left out of the configuration, or disabled.
///
/// A list, not a map: the order the adapters were added in (the configuration's) is the
/// order clients list them in. A few dozen entries at most, so a lookup scans.
#[derive(Clone, Default)]
pub struct ProviderRegistry {
    providers: Vec<Arc<dyn IdentityProvider>>,
    /// Providers whose native sign-in may come without a nonce (`id_token_nonce =
    /// "optional"`); every other one requires it.
    nonce_optional: HashSet<ProviderKey>,
    /// The sign-up policies that are not the default (anyone may sign up).
    signup: HashMap<ProviderKey, SignupPolicy>,
    /// Where each provider's API is, for relayed calls (none: no relay for it).
    apis: HashMap<ProviderKey, Arc<ProviderApi>>,
    /// Each provider's own `linking`; one without follows the global default.
    linking: HashMap<ProviderKey, Linking>,
}

/// Where a provider's API is, for calls relayed for its users: the base URLs (each ending
/// in `/`; the first is the default) and the scopes a connect may add.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderApi {
    pub bases: Vec<String>,
    pub connect_scopes: Vec<String>,
}

impl ProviderApi {
    /// The base a call goes to: the one named (which must be listed exactly), else the first.
    pub fn base(&self, named: Option<&str>) -> Option<&str> {
        match named {
            Some(named) => self.bases.iter().find(|base| *base == named),
            None => self.bases.first(),
        }
        .map(String::as_str)
    }
}

impl ProviderRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the adapter for its own key, last; one already there for that key is replaced
    /// where it stands.
    pub fn with(mut self, provider: Arc<dyn IdentityProvider>) -> Self {
        let key = provider.key();
        match self.providers.iter_mut().find(|held| held.key() == key) {
            Some(held) => *held = provider,
            None => self.providers.push(provider),
        }
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

    /// Sets who may become a new user through `key` (docs/api.md#sign-up-policy).
    pub fn with_signup_policy(mut self, key: ProviderKey, policy: SignupPolicy) -> Self {
        self.signup.insert(key, policy);
        self
    }

    /// Sets where `key`'s API is for relayed calls; without bases it has no relay.
    pub fn with_api(mut self, key: ProviderKey, api: ProviderApi) -> Self {
        self.apis.insert(key, Arc::new(api));
        self
    }

    /// Sets how `key`'s logins may join the owner of their verified email.
    pub fn with_linking(mut self, key: ProviderKey, linking: Linking) -> Self {
        self.linking.insert(key, linking);
        self
    }

    /// Who may become a new user through `key`: anyone unless a policy was set.
    pub fn signup_policy(&self, key: ProviderKey) -> SignupPolicy {
        self.signup.get(&key).cloned().unwrap_or_default()
    }

    pub fn get(&self, key: ProviderKey) -> Option<&Arc<dyn IdentityProvider>> {
        self.providers.iter().find(|provider| provider.key() == key)
    }

    /// The enabled provider of `key` with what a flow asks of it (its adapter, its sign-up
    /// policy, whether its native sign-in needs a nonce), resolved at once.
    pub fn enabled(&self, key: ProviderKey) -> Option<EnabledProvider> {
        Some(EnabledProvider {
            adapter: self.get(key)?.clone(),
            signup: self.signup_policy(key),
            nonce_required: self.requires_nonce(key),
            api: self.apis.get(&key).cloned(),
            linking: self.linking.get(&key).copied(),
        })
    }

    /// The enabled keys, in the order the adapters were added.
    pub fn keys(&self) -> Vec<ProviderKey> {
        self.providers
            .iter()
            .map(|provider| provider.key())
            .collect()
    }

    /// How clients list the enabled providers, in the order the adapters were added.
    pub fn infos(&self) -> Vec<ProviderInfo> {
        self.providers
            .iter()
            .map(|provider| provider.info())
            .collect()
    }
}

/// A provider this service has enabled, resolved once for a request: handlers get it from
/// the path, and every use case takes it instead of looking the key up again.
#[derive(Clone)]
pub struct EnabledProvider {
    adapter: Arc<dyn IdentityProvider>,
    signup: SignupPolicy,
    nonce_required: bool,
    api: Option<Arc<ProviderApi>>,
    linking: Option<Linking>,
}

impl EnabledProvider {
    pub fn key(&self) -> ProviderKey {
        self.adapter.key()
    }

    /// The adapter, if it can serve a sign-in now (else 503, before any state value is
    /// minted or spent).
    pub(crate) fn ready(&self) -> Result<&Arc<dyn IdentityProvider>, crate::AppError> {
        self.adapter.ready()?;
        Ok(&self.adapter)
    }

    /// Who may become a new user through it.
    pub(crate) fn signup(&self) -> &SignupPolicy {
        &self.signup
    }

    /// How its logins may join the owner of their verified email: its own `linking`, else
    /// what the global `auto_link_by_email` makes the default.
    pub(crate) fn linking(&self, auto_link_by_email: bool) -> Linking {
        self.linking
            .unwrap_or_else(|| Linking::default_for(auto_link_by_email))
    }

    /// Where its API is, when calls are relayed to it.
    pub(crate) fn api(&self) -> Option<&ProviderApi> {
        self.api.as_deref().filter(|api| !api.bases.is_empty())
    }

    /// The scopes a connect may ask for beyond the provider's.
    pub(crate) fn connect_scopes(&self) -> &[String] {
        self.api.as_deref().map_or(&[], |api| &api.connect_scopes)
    }

    /// The adapter, for calls that are no sign-in (a relayed call, its refresh).
    pub(crate) fn adapter(&self) -> &Arc<dyn IdentityProvider> {
        &self.adapter
    }

    /// Whether its native sign-in must carry a nonce.
    pub(crate) fn nonce_required(&self) -> bool {
        self.nonce_required
    }
}

impl std::fmt::Debug for EnabledProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("EnabledProvider").field(&self.key()).finish()
    }
}

impl std::fmt::Display for EnabledProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.key().fmt(f)
    }
}

impl PartialEq for EnabledProvider {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for EnabledProvider {}
