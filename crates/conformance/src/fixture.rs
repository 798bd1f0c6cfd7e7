//! One registered client per simulated provider, its default user, and the settings that
//! point an adapter at the simulator: what every adapter test of that provider starts from.
//! The eight built-in providers, the presets, and two providers from configuration.

mod generic;
mod presets;
mod providers;
mod seeded;

pub use generic::{GENERIC_OAUTH2, GENERIC_OIDC};
pub use presets::{preset_fixture, preset_user, unverified_preset_user};
pub use providers::{
    APPLE, APPLE_SUB, DISCORD, FACEBOOK, GITHUB, GOOGLE, LINKEDIN, LINKEDIN_PICTURE, MICROSOFT,
    OTHER_P256_KEY_PEM, TWITTER,
};

use crate::flow::Flow;
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_core::spec::{ProviderSpec, Tenant, built_in_spec, preset};
use social_login_provider_core::{
    BuildContext, EndpointOverrides, ProviderConfigError, ProviderHttp, ProviderPlan,
    ProviderSettings, build_http_client,
};
use social_login_simulator::{
    AppleTeam, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::time::Duration;

/// A simulated provider with one registered client.
#[derive(Debug, Clone, Copy)]
pub struct Fixture {
    pub key: ProviderKey,
    pub provider: Provider,
    pub client_id: &'static str,
    /// Empty for Apple, whose client secret is a JWT the adapter signs.
    pub client_secret: &'static str,
    pub callback: &'static str,
    /// The user the simulator approves as by default.
    pub user: fn() -> SimUser,
    /// Which of the simulator's endpoints the settings name.
    pub endpoints: Endpoints,
}

/// Which of the simulated provider's endpoints a fixture's settings name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoints {
    /// Every endpoint it serves, and the issuer where it signs id_tokens.
    All,
    /// The issuer alone: discovery finds the rest.
    Issuer,
}

impl Fixture {
    pub fn flow(&self) -> Flow {
        Flow {
            callback: self.callback,
        }
    }

    /// The default user, for tests that vary it.
    pub fn user(&self) -> SimUser {
        (self.user)()
    }

    /// The registered client, with `secret` in place of the fixture's.
    pub fn client(&self, secret: &str) -> RegisteredClient {
        RegisteredClient::new(self.provider, self.client_id, secret, self.callback)
    }

    /// A simulator configuration with the client and `users` (the first is the default).
    pub fn config(&self, users: impl IntoIterator<Item = SimUser>) -> SimulatorConfig {
        let mut config = SimulatorConfig::default().with_client(self.client(self.client_secret));
        if self.provider == Provider::Apple {
            config = config.with_apple_team(AppleTeam::test_fixture());
        }
        users.into_iter().fold(config, SimulatorConfig::with_user)
    }

    /// A simulator whose only user is the default one.
    pub async fn start(&self) -> SimulatorHandle {
        self.start_as(self.user()).await
    }

    /// A simulator whose only user is `user`.
    pub async fn start_as(&self, user: SimUser) -> SimulatorHandle {
        start(self.config([user])).await
    }

    /// Settings with the fixture's client and every endpoint on `sim`.
    pub fn settings(&self, sim: &SimulatorHandle) -> ProviderSettings {
        ProviderSettings {
            client_id: self.client_id.into(),
            client_secret: SecretText::new(self.client_secret),
            redirect_uri: self.callback.into(),
            scopes: None,
            pkce: true,
            client_ids: Vec::new(),
            signing: None,
            endpoints: match self.endpoints {
                Endpoints::All => all_endpoints(sim, self.provider),
                Endpoints::Issuer => EndpointOverrides {
                    issuer: sim.endpoints(self.provider).issuer,
                    ..EndpointOverrides::default()
                },
            },
        }
    }

    /// The declaration of this built-in provider or preset; a per-tenant preset's for the
    /// tenant the settings' issuer names.
    pub fn spec(&self, settings: &ProviderSettings) -> ProviderSpec {
        spec_of(self.key, settings)
    }

    /// The plan of this built-in provider or preset with `settings`, as the server resolves
    /// it.
    pub fn plan(&self, settings: &ProviderSettings) -> Result<ProviderPlan, ProviderConfigError> {
        ProviderPlan::resolve(&self.spec(settings), settings)
    }

    /// What no message of this provider's adapter may repeat: the client secret and every
    /// access token the simulator issued.
    pub fn secrets(&self, sim: &SimulatorHandle) -> Vec<String> {
        let mut secrets = sim.issued_access_tokens();
        if !self.client_secret.is_empty() {
            secrets.push(self.client_secret.to_owned());
        }
        secrets
    }
}

/// The declaration of the built-in provider or preset `key`; a per-tenant preset's for the
/// tenant the settings' issuer names.
pub fn spec_of(key: ProviderKey, settings: &ProviderSettings) -> ProviderSpec {
    let spec = built_in_spec(key)
        .or_else(|| preset(key.as_str()))
        .expect("a built-in provider or a preset")
        .clone();
    match settings.endpoints.issuer.as_deref() {
        Some(issuer) if spec.is_per_tenant() => spec.for_tenant(Tenant {
            issuer: Some(issuer),
            domain: Some("sim.auth.eu-west-1.amazoncognito.com"),
        }),
        _ => spec,
    }
}

/// Every endpoint `provider` serves on `sim` as settings overrides, and the issuer of its
/// id_tokens where it signs them.
pub fn all_endpoints(sim: &SimulatorHandle, provider: Provider) -> EndpointOverrides {
    let e = sim.endpoints(provider);
    EndpointOverrides {
        authorization: Some(e.authorization),
        token: Some(e.token),
        userinfo: e.userinfo,
        emails: e.emails,
        jwks: e.jwks,
        refresh: e.refresh,
        issuer: e.issuer,
        revocation: e.revocation,
        ..EndpointOverrides::default()
    }
}

/// What a provider under test is built with: production's HTTP client (10-second timeout)
/// and clock.
pub fn build_context() -> BuildContext {
    BuildContext::new(http_client())
}

/// The HTTP client of an adapter under test: production's, with a 10-second timeout.
pub fn http_client() -> ProviderHttp {
    build_http_client(Duration::from_secs(10)).expect("an HTTP client")
}

pub async fn start(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}
