//! A provider of `kind = "oidc"` from configuration (docs/providers.md, "Providers from
//! configuration"): no quirks, its declaration made from its table and its discovery
//! document. Until discovery succeeds it serves no sign-in (`ready` answers `Unavailable`,
//! 503) and a [`DiscoveryRetry`] keeps trying; once it succeeds the provider serves, without
//! a restart, and keeps what it learned for the life of the process (its keys refresh
//! through the key-set cache).

mod retry;
#[cfg(test)]
mod tests;

pub use retry::{Backoff, DiscoveryRetry};

use crate::discovery::{DiscoveryError, discover};
use async_trait::async_trait;
use social_login_domain::{ProviderKey, ProviderKind, ProviderTokens, SecretText};
use social_login_id_token::oidc_engine;
use social_login_ports::{
    ApiAnswer, ApiCall, AuthorizationRequest, CallbackInput, IdTokenInput, IdentityProvider,
    PresentedIdToken, ProviderError, ProviderGrant, ProviderInfo, ProviderLogin, RefreshFailure,
    Revoked,
};
use social_login_provider_core::spec::GenericProvider;
use social_login_provider_core::{
    BuildContext, Engine, NoQuirks, ProviderConfigError, ProviderPlan, ProviderSettings,
};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Why the provider could not be built from its discovery document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryFailed {
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    /// The document was fine, but a setting does not fit it (a URL override, the client).
    #[error("the document does not fit the settings: {0}")]
    Plan(#[from] ProviderConfigError),
}

/// The engine of `provider`: its discovery document fetched (within the client's timeout),
/// the declaration made from it and the table, the id_token check on the published key set.
pub async fn discovered_engine(
    provider: &GenericProvider,
    settings: &ProviderSettings,
    cx: &BuildContext,
) -> Result<Engine, DiscoveryFailed> {
    let issuer = provider.issuer.as_deref().unwrap_or_default();
    let found = discover(&cx.http, issuer).await?;
    let spec = provider.declaration(Some(&found.published()));
    let plan = ProviderPlan::resolve(&spec, settings)?;
    Ok(oidc_engine(plan, Arc::new(NoQuirks), cx)?)
}

/// What one discovery attempt needs.
struct Discovery {
    provider: GenericProvider,
    settings: ProviderSettings,
    cx: BuildContext,
}

impl Discovery {
    async fn attempt(&self) -> Result<Engine, DiscoveryFailed> {
        discovered_engine(&self.provider, &self.settings, &self.cx).await
    }
}

/// A provider of `kind = "oidc"` from configuration, discovered or not yet. `Debug` shows
/// no secret.
pub struct GenericOidc {
    discovery: Arc<Discovery>,
    /// Whether its declaration takes native sign-in: known before discovery.
    native_sign_in: bool,
    /// Set once, by the first attempt that succeeds.
    engine: Arc<OnceLock<Engine>>,
}

impl GenericOidc {
    /// The provider of `provider`'s table, not discovered yet. Fails without an issuer.
    pub fn new(
        provider: GenericProvider,
        settings: ProviderSettings,
        cx: BuildContext,
    ) -> Result<Self, ProviderConfigError> {
        let issuer = provider.issuer.as_deref().unwrap_or_default();
        if provider.kind != ProviderKind::Oidc || issuer.trim().is_empty() {
            return Err(ProviderConfigError::Missing { field: "issuer" });
        }
        Ok(Self {
            native_sign_in: provider.declaration(None).native_sign_in(),
            discovery: Arc::new(Discovery {
                provider,
                settings,
                cx,
            }),
            engine: Arc::new(OnceLock::new()),
        })
    }

    /// One discovery attempt; the provider serves from its success on. Succeeds at once
    /// when an earlier attempt did.
    pub async fn discover(&self) -> Result<(), DiscoveryFailed> {
        if self.engine.get().is_none() {
            let engine = self.discovery.attempt().await?;
            // Another attempt may have won meanwhile: either engine is the same provider.
            let _ = self.engine.set(engine);
        }
        Ok(())
    }

    /// The task that retries discovery until it succeeds (spawn it once, after a failed
    /// [`GenericOidc::discover`]); it ends early when the provider is dropped.
    pub fn retry(&self) -> DiscoveryRetry {
        DiscoveryRetry::new(
            self.key(),
            Arc::downgrade(&self.engine),
            self.discovery.clone(),
        )
    }

    /// The issuer discovery starts from, for messages.
    fn issuer(&self) -> &str {
        self.discovery
            .provider
            .issuer
            .as_deref()
            .unwrap_or_default()
    }

    /// The engine, once discovered.
    pub fn engine(&self) -> Result<&Engine, ProviderError> {
        self.engine.get().ok_or_else(|| {
            ProviderError::Unavailable(format!(
                "discovery of {} has not succeeded yet",
                self.issuer()
            ))
        })
    }
}

impl fmt::Debug for GenericOidc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GenericOidc")
            .field("provider", &self.discovery.provider)
            .field("settings", &self.discovery.settings)
            .field("engine", &self.engine.get())
            .finish()
    }
}

#[async_trait]
impl IdentityProvider for GenericOidc {
    fn key(&self) -> ProviderKey {
        self.discovery.provider.key
    }

    /// Known before discovery: the table names it.
    fn info(&self) -> ProviderInfo {
        ProviderInfo {
            key: self.key(),
            display_name: self.discovery.provider.display_name.clone(),
            kind: ProviderKind::Oidc,
            id_token: self.native_sign_in,
        }
    }

    fn ready(&self) -> Result<(), ProviderError> {
        self.engine().map(|_| ())
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> Result<String, ProviderError> {
        self.engine()?.authorization_url(request)
    }

    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        self.engine()?.complete(callback).await
    }

    /// Before discovery there is nowhere to revoke at: `Unavailable`, which disconnect and
    /// deletion treat like any failed revocation (best effort).
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        self.engine()?.revoke(grant).await
    }

    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        self.engine()?.sign_in_with_id_token(input).await
    }

    async fn refresh(&self, grant: ProviderGrant) -> Result<ProviderTokens, RefreshFailure> {
        let engine = self
            .engine()
            .map_err(|error| RefreshFailure::Failed(error.to_string()))?;
        engine.refresh(grant).await
    }

    async fn call_api(&self, call: ApiCall) -> Result<ApiAnswer, ProviderError> {
        self.engine()?.call_api(call).await
    }

    async fn honours(&self, token: SecretText) -> Result<bool, ProviderError> {
        self.engine()?.honours(token).await
    }
}
