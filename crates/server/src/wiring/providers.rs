//! One adapter per enabled provider: a declaration (built-in, preset or from configuration)
//! is built by the crate that serves it (`crate::adapters`). A provider from configuration
//! of `kind = "oidc"` needs its discovery document first ([`discovery`]).

mod discovery;

pub use discovery::Undiscovered;

use crate::adapters;
use crate::settings::{Declared, IdTokenNonce, ProviderConfig, Settings};
use crate::startup_error::StartupError;
use social_login_app::{ProviderApi, ProviderRegistry};
use social_login_domain::ProviderKind;
use social_login_ports::IdentityProvider;
use social_login_provider_core::{BuildContext, Engine, ProviderSettings, build_http_client};
use social_login_provider_oidc::generic::GenericOidc;
use std::sync::Arc;

/// The enabled providers, and those of `kind = "oidc"` whose discovery failed at start-up
/// (listed, answering 503 until a retry succeeds).
pub struct Providers {
    pub registry: ProviderRegistry,
    pub undiscovered: Undiscovered,
}

/// Every enabled provider, all sharing one pooled HTTP client; the discovery documents of
/// the `oidc` ones fetched at once, within `[http] provider_timeout_seconds`.
pub async fn registry(settings: &Settings) -> Result<Providers, StartupError> {
    let timeout = settings.http.provider_timeout();
    let http =
        build_http_client(timeout).map_err(|error| StartupError::Provider(error.to_string()))?;
    let cx = BuildContext::new(http);
    let mut registry = ProviderRegistry::new();
    let mut pending = Vec::new();
    for (key, config) in settings.enabled_providers() {
        let failed =
            |error: String| StartupError::Provider(format!("oauth_providers.{key}: {error}"));
        let provider = settings.adapter_settings(key, config);
        let declared = config
            .declared(key)
            .ok_or_else(|| failed(adapters::NO_ADAPTER.to_owned()))?;
        let hosted_domain = checks_hosted_domain(&declared);
        let api = provider_api(&declared, config);
        let adapter: Arc<dyn IdentityProvider> = match declared {
            Declared::Generic(generic) if generic.kind == ProviderKind::Oidc => {
                let oidc = GenericOidc::new(generic, provider, cx.clone())
                    .map_err(|e| failed(e.to_string()))?;
                let oidc = Arc::new(oidc);
                pending.push(oidc.clone());
                oidc
            }
            declared => Arc::new(build(&declared, &provider, &cx).map_err(failed)?),
        };
        registry = registry
            .with(adapter)
            .with_signup_policy(key, config.signup_policy(hosted_domain))
            .with_api(key, api);
        if let Some(linking) = config.linking {
            registry = registry.with_linking(key, linking.into());
        }
        if config.id_token_nonce == Some(IdTokenNonce::Optional) {
            registry = registry.with_optional_nonce(key);
        }
    }
    Ok(Providers {
        registry,
        undiscovered: discovery::first_attempts(pending, timeout).await,
    })
}

/// Where the provider's API is for relayed calls: the table's `relay_base_urls`, else the
/// declaration's (a provider from configuration has none unless its table names them).
fn provider_api(declared: &Declared, config: &ProviderConfig) -> ProviderApi {
    let declared_bases = declared.spec().map(|spec| spec.relay_base_urls.clone());
    ProviderApi {
        bases: (config.relay_base_urls.clone())
            .unwrap_or_else(|| declared_bases.unwrap_or_default()),
        connect_scopes: config.connect_scopes.clone(),
    }
}

/// Whether the declaration names the organisation that manages an account (Google's `hd`),
/// which a domain list then checks too. Providers from configuration name none.
fn checks_hosted_domain(declared: &Declared) -> bool {
    declared
        .spec()
        .is_some_and(|spec| spec.claims.hosted_domain.is_some())
}

/// The engine of a declaration the server builds at once: a built-in provider, a preset, or
/// a provider of `kind = "oauth2"` from configuration.
fn build(
    declared: &Declared,
    provider: &ProviderSettings,
    cx: &BuildContext,
) -> Result<Engine, String> {
    adapters::build(&declared.without_discovery(), provider, cx)
}
