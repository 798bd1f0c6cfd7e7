//! One adapter per enabled provider, and the problems `check-config` reports for each: a
//! declaration (built-in, preset or from configuration) goes to the crate that has the quirks
//! it names, else to the one of its kind, and that crate builds it, the same way whether the
//! server starts or only checks. A provider from configuration of `kind = "oidc"` needs its
//! discovery document first ([`discovery`]).

mod discovery;

pub use discovery::Undiscovered;

use crate::settings::{Declared, IdTokenNonce, ProviderConfig, Settings};
use crate::startup_error::StartupError;
use social_login_app::{ProviderApi, ProviderRegistry};
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_ports::IdentityProvider;
use social_login_provider_apple as apple;
use social_login_provider_core::spec::ProviderSpec;
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
    /// The quirks it has, by the name a declaration gives them.
    quirks: &'static [&'static str],
    /// The kind whose declarations without quirks it builds.
    plain: Option<ProviderKind>,
    build: fn(ProviderPlan, &BuildContext) -> Result<Engine, ProviderConfigError>,
    problems: fn(&ProviderSpec, &ProviderSettings) -> Vec<SettingsProblem>,
}

const CRATES: [Crate; 3] = [
    Crate {
        quirks: oauth2::QUIRKS,
        plain: Some(ProviderKind::OAuth2),
        build: oauth2::build,
        problems: core::problems,
    },
    Crate {
        quirks: oidc::QUIRKS,
        plain: Some(ProviderKind::Oidc),
        build: oidc::build,
        problems: core::problems,
    },
    Crate {
        quirks: apple::QUIRKS,
        plain: None,
        build: apple::build,
        problems: apple::problems,
    },
];

/// The crate that builds `spec`: the one with the quirks it names, else the one of its kind.
fn crate_for(spec: &ProviderSpec) -> Option<&'static Crate> {
    CRATES.iter().find(|adapters| match spec.quirks.as_deref() {
        Some(name) => adapters.quirks.contains(&name),
        None => adapters.plain == Some(spec.kind),
    })
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
        let declared = config
            .declared(key)
            .ok_or_else(|| failed(NO_ADAPTER.to_owned()))?;
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

/// Whether the declaration names the organisation that manages an account (Google's `hd`),
/// which a domain list then checks too. Providers from configuration name none.
/// Where the provider's API is for relayed calls: the table's `relay_base_urls`, else the
/// declaration's (a provider from configuration has none unless its table names them).
fn provider_api(declared: &Declared, config: &ProviderConfig) -> ProviderApi {
    let declared_bases = match declared {
        Declared::BuiltIn(spec) => spec.relay_base_urls.clone(),
        Declared::Preset(spec) => spec.relay_base_urls.clone(),
        Declared::Generic(generic) => generic.knobs.relay_base_urls.clone().unwrap_or_default(),
    };
    ProviderApi {
        bases: config.relay_base_urls.clone().unwrap_or(declared_bases),
        connect_scopes: config.connect_scopes.clone(),
    }
}

fn checks_hosted_domain(declared: &Declared) -> bool {
    match declared {
        Declared::BuiltIn(spec) => spec.claims.hosted_domain.is_some(),
        Declared::Preset(spec) => spec.claims.hosted_domain.is_some(),
        Declared::Generic(_) => false,
    }
}

/// The engine of a declaration the server builds at once: a built-in provider, a preset, or
/// a provider of `kind = "oauth2"` from configuration.
fn build(
    declared: &Declared,
    provider: &ProviderSettings,
    cx: &BuildContext,
) -> Result<Engine, String> {
    let generic;
    let spec = match declared {
        Declared::BuiltIn(spec) => *spec,
        Declared::Preset(spec) => spec,
        Declared::Generic(table) => {
            generic = table.declaration(None);
            &generic
        }
    };
    let adapters = crate_for(spec).ok_or_else(|| NO_ADAPTER.to_owned())?;
    ProviderPlan::resolve(spec, provider)
        .and_then(|plan| (adapters.build)(plan, cx))
        .map_err(|error| error.to_string())
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
    // A table's declaration is checked whole, but a provider from configuration's only as
    // far as its table goes: an `oidc` one's discovery completes it (its table rules name
    // what it lacks).
    let (spec, declared_problems) = match config.declared(key) {
        Some(Declared::BuiltIn(spec)) => (spec.clone(), spec.problems()),
        Some(Declared::Preset(spec)) => {
            let problems = spec.problems();
            (spec, problems)
        }
        Some(Declared::Generic(generic)) => {
            provider.endpoints.issuer = None;
            let spec = generic.declaration(None);
            let problems = spec.knob_problems();
            (spec, problems)
        }
        None => return Vec::new(),
    };
    let mut problems: Vec<SettingsProblem> = declared_problems
        .into_iter()
        .map(|problem| SettingsProblem::provider(problem.field, problem.message))
        .collect();
    match crate_for(&spec) {
        Some(adapters) => problems.extend((adapters.problems)(&spec, &provider)),
        None => problems.push(SettingsProblem::provider(
            "enabled",
            format!("{key} has no adapter in this build"),
        )),
    }
    problems
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
