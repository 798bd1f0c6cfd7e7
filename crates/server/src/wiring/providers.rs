//! One adapter per enabled provider, and the problems `check-config` reports for each: a
//! built-in key goes to the crate that has its quirks, and that crate builds it from its
//! declaration, the same way whether the server starts or only checks. A provider from
//! configuration is declared by its table (docs/providers.md): `oauth2` builds at once, with
//! no quirks; `oidc` needs its discovery document first ([`discovery`]).

mod discovery;

pub use discovery::Undiscovered;

use crate::server::StartupError;
use crate::settings::{IdTokenNonce, ProviderConfig, Settings};
use social_login_app::ProviderRegistry;
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_ports::IdentityProvider;
use social_login_provider_apple as apple;
use social_login_provider_core::spec::{GenericProvider, ProviderSpec, built_in_spec};
use social_login_provider_core::{
    self as core, BuildContext, Engine, ProviderConfigError, ProviderPlan, ProviderSettings,
    SettingsProblem, SigningKey, build_http_client,
};
use social_login_provider_oauth2 as oauth2;
use social_login_provider_oidc as oidc;
use social_login_provider_oidc::generic::GenericOidc;
use std::sync::Arc;

/// What one adapter crate offers the server.
struct Crate {
    keys: &'static [ProviderKey],
    build: fn(ProviderPlan, &BuildContext) -> Result<Engine, ProviderConfigError>,
    problems: fn(&ProviderSpec, &ProviderSettings) -> Vec<SettingsProblem>,
}

const CRATES: [Crate; 3] = [
    Crate {
        keys: oauth2::KEYS,
        build: oauth2::build,
        problems: core::problems,
    },
    Crate {
        keys: oidc::KEYS,
        build: oidc::build,
        problems: core::problems,
    },
    Crate {
        keys: apple::KEYS,
        build: apple::build,
        problems: apple::problems,
    },
];

/// The declaration of `key` and the crate that builds it.
fn lookup(key: ProviderKey) -> Option<(&'static ProviderSpec, &'static Crate)> {
    let spec = built_in_spec(key)?;
    CRATES
        .iter()
        .find(|adapters| adapters.keys.contains(&key))
        .map(|adapters| (spec, adapters))
}

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
        let provider = adapter_settings(key, config, settings);
        let adapter: Arc<dyn IdentityProvider> = match config.generic_provider(key) {
            Some(generic) if generic.kind == ProviderKind::Oidc => {
                let oidc = GenericOidc::new(generic, provider, cx.clone())
                    .map_err(|e| failed(e.to_string()))?;
                let oidc = Arc::new(oidc);
                pending.push(oidc.clone());
                oidc
            }
            generic => Arc::new(build(key, generic, &provider, &cx).map_err(failed)?),
        };
        registry = registry
            .with(adapter)
            .with_signup_policy(key, config.signup_policy(checks_hosted_domain(key)));
        if config.id_token_nonce == Some(IdTokenNonce::Optional) {
            registry = registry.with_optional_nonce(key);
        }
    }
    Ok(Providers {
        registry,
        undiscovered: discovery::first_attempts(pending, timeout).await,
    })
}

/// Whether `key`'s declaration names the organisation that manages an account (Google's
/// `hd`), which a domain list then checks too. Providers from configuration name none.
fn checks_hosted_domain(key: ProviderKey) -> bool {
    built_in_spec(key).is_some_and(|spec| spec.claims.hosted_domain.is_some())
}

/// The engine of a built-in provider, or of a provider of `kind = "oauth2"` from
/// configuration (`generic`), which has no quirks: the oauth2 crate builds any key it has
/// none for plainly.
fn build(
    key: ProviderKey,
    generic: Option<GenericProvider>,
    provider: &ProviderSettings,
    cx: &BuildContext,
) -> Result<Engine, String> {
    let plan = |spec: &ProviderSpec| ProviderPlan::resolve(spec, provider);
    let engine = match generic {
        Some(generic) => plan(&generic.declaration(None)).and_then(|plan| oauth2::build(plan, cx)),
        None => {
            let (spec, adapters) = lookup(key).ok_or_else(|| NO_ADAPTER.to_owned())?;
            plan(spec).and_then(|plan| (adapters.build)(plan, cx))
        }
    };
    engine.map_err(|error| error.to_string())
}

/// The problems the adapter of `key` finds in its settings: the same checks it makes when
/// it is built at start-up, all at once. A provider from configuration is checked against
/// the declaration its table makes (an `oidc` one's discovery is `check-config`'s own
/// step); the fields its table may not hold are named by the table rules, not again here.
pub fn problems(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
) -> Vec<SettingsProblem> {
    let mut provider = adapter_settings(key, config, settings);
    if let Some(generic) = config.generic_provider(key) {
        provider.endpoints.emails = None;
        provider.endpoints.issuer = None;
        return core::problems(&generic.declaration(None), &provider);
    }
    match lookup(key) {
        Some((spec, adapters)) => (adapters.problems)(spec, &provider),
        None => vec![SettingsProblem::provider(
            "enabled",
            format!("{key} has no adapter in this build"),
        )],
    }
}

const NO_ADAPTER: &str = "no adapter in this build";

/// The provider's table as its adapter takes it; Apple's also carries the team's signing
/// key, which is a setting of the service.
fn adapter_settings(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
) -> ProviderSettings {
    let mut provider = config.adapter_settings();
    if key == ProviderKey::APPLE {
        provider.signing = Some(SigningKey {
            team_id: settings.apple_team_id.clone().unwrap_or_default(),
            key_id: settings.apple_key_id.clone().unwrap_or_default(),
            private_key_pem: settings.apple_private_key(),
        });
    }
    provider
}
