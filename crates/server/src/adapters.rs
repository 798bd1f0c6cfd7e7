//! The adapter crates of this build, and which of them serves a declaration: the one with
//! the quirks it names, else the one of its kind. The same crate builds the provider at
//! start-up and checks its settings for `check-config`.

use social_login_domain::{ProviderKey, ProviderKind};
use social_login_provider_apple as apple;
use social_login_provider_core::spec::ProviderSpec;
use social_login_provider_core::{
    self as core, BuildContext, Engine, ProviderConfigError, ProviderPlan, ProviderSettings,
    SettingsProblem,
};
use social_login_provider_oauth2 as oauth2;
use social_login_provider_oidc as oidc;

/// Why a declaration no crate serves cannot be built.
pub const NO_ADAPTER: &str = "no adapter in this build";

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

/// The crate that serves `spec`.
fn crate_for(spec: &ProviderSpec) -> Option<&'static Crate> {
    CRATES.iter().find(|adapters| match spec.quirks.as_deref() {
        Some(name) => adapters.quirks.contains(&name),
        None => adapters.plain == Some(spec.kind),
    })
}

/// The engine of `spec` with the operator's `provider` settings.
pub fn build(
    spec: &ProviderSpec,
    provider: &ProviderSettings,
    cx: &BuildContext,
) -> Result<Engine, String> {
    let adapters = crate_for(spec).ok_or_else(|| NO_ADAPTER.to_owned())?;
    ProviderPlan::resolve(spec, provider)
        .and_then(|plan| (adapters.build)(plan, cx))
        .map_err(|error| error.to_string())
}

/// What the crate that serves `spec` (enabled as `key`) finds in `provider`: the checks it
/// makes when it is built, all at once.
pub fn problems(
    key: ProviderKey,
    spec: &ProviderSpec,
    provider: &ProviderSettings,
) -> Vec<SettingsProblem> {
    match crate_for(spec) {
        Some(adapters) => (adapters.problems)(spec, provider),
        None => vec![SettingsProblem::provider(
            "enabled",
            format!("{key} has {NO_ADAPTER}"),
        )],
    }
}
