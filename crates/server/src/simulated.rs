//! Pointing the service at the built-in simulated identity provider: the one mapping from
//! provider keys to simulator endpoints, shared by `demo` and the end-to-end tests. The
//! simulator's two standard providers stand for providers from configuration: `acme-sso`
//! (its OpenID provider) and `corp` (its OAuth 2.0 provider), configured as an operator
//! would (docs/providers.md); every preset is simulated under its own key.

use crate::settings::{ClaimsConfig, EndpointOverrides, ProviderConfig, Settings};
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_provider_core::spec::{ISSUER, ProviderSpec, built_in_spec, presets};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, AppleTeam, Provider,
    RegisteredClient, SimulatorConfig, SimulatorHandle,
};

/// How the service is registered with one simulated provider.
#[derive(Debug, Clone)]
pub struct SimulatedClient {
    pub client_id: String,
    pub client_secret: String,
    pub redirect_uri: String,
}

/// The key the simulator's standard OpenID provider (`/oidc`) is configured under.
pub const ACME_SSO: ProviderKey = generic_key("acme-sso");
/// The key the simulator's standard OAuth 2.0 provider (`/oauth2`) is configured under.
pub const CORP: ProviderKey = generic_key("corp");

const fn generic_key(raw: &str) -> ProviderKey {
    match ProviderKey::parse(raw) {
        Ok(key) => key,
        Err(_) => panic!("a provider key"),
    }
}

/// Registers a client for every provider, the two standard ones and the presets included,
/// and the fixture team Apple verifies our ES256 client secret against.
pub fn register_clients(
    mut config: SimulatorConfig,
    client: impl Fn(ProviderKey) -> SimulatedClient,
) -> SimulatorConfig {
    let presets = presets().iter().map(|spec| spec.key);
    for key in ProviderKey::BUILT_IN
        .into_iter()
        .chain([ACME_SSO, CORP])
        .chain(presets)
    {
        let SimulatedClient {
            client_id,
            client_secret,
            redirect_uri,
        } = client(key);
        config = config.with_client(RegisteredClient::new(
            simulator_provider(key),
            client_id,
            client_secret,
            redirect_uri,
        ));
    }
    config.with_apple_team(AppleTeam::test_fixture())
}

/// Adds, after the providers already in `settings`, the two providers from configuration
/// the simulator's standard ones stand for, configured through the ordinary settings:
/// "Acme SSO" (`kind = "oidc"`, discovery at `{simulator}/oidc`) and "Corp OAuth" (`kind =
/// "oauth2"`, its endpoints, and pointers into its nested user document). Both vouch for
/// their providers' `email_verified`.
pub fn enable_standard(
    settings: &mut Settings,
    simulator: &SimulatorHandle,
    client: impl Fn(ProviderKey) -> SimulatedClient,
) {
    let table = |key: ProviderKey, kind: ProviderKind, display_name: &str| {
        let SimulatedClient {
            client_id,
            client_secret,
            redirect_uri,
        } = client(key);
        ProviderConfig {
            display_name: Some(display_name.to_owned()),
            trust_email_verified: Some(true),
            ..ProviderConfig::generic(kind, client_id, client_secret, redirect_uri)
        }
    };
    let mut acme = table(ACME_SSO, ProviderKind::Oidc, "Acme SSO");
    acme.issuer = simulator.endpoints(Provider::StandardOidc).issuer;
    settings.oauth_providers.insert(ACME_SSO, acme);
    let pointer = |path: &str| Some(format!("/data{path}"));
    let corp = ProviderConfig {
        scopes: Some(vec!["profile".into(), "email".into()]),
        endpoints: endpoints(CORP, simulator),
        claims: Some(ClaimsConfig {
            subject: pointer("/id"),
            email: pointer("/attributes/mail"),
            email_verified: pointer("/attributes/mail_confirmed")
                .map(|flag| social_login_provider_core::spec::EmailVerified::AllOf(vec![flag])),
            name: pointer("/attributes/display"),
            avatar_url: pointer("/attributes/avatar/url"),
        }),
        ..table(CORP, ProviderKind::OAuth2, "Corp OAuth")
    };
    settings.oauth_providers.insert(CORP, corp);
}

/// Enables every provider in `settings` against `simulator`, with the fixture Apple team
/// key: fine for a demo or a test, never for production.
pub fn enable_all(
    settings: &mut Settings,
    simulator: &SimulatorHandle,
    client: impl Fn(ProviderKey) -> SimulatedClient,
) {
    for key in ProviderKey::BUILT_IN {
        let SimulatedClient {
            client_id,
            client_secret,
            redirect_uri,
        } = client(key);
        let mut config = ProviderConfig::new(client_id, client_secret, redirect_uri);
        config.endpoints = endpoints(key, simulator);
        config.relay_base_urls = relay_base(key, simulator);
        settings.oauth_providers.insert(key, config);
    }
    settings.apple_team_id = Some(APPLE_TEST_TEAM_ID.to_owned());
    settings.apple_key_id = Some(APPLE_TEST_KEY_ID.to_owned());
    settings.apple_private_key_pem = Some(APPLE_TEST_KEY_PEM.to_owned().into());
}

/// Enables every preset in `settings` against `simulator`, each under its own key with
/// client id, secret and redirect URI alone, as an operator enables one: a per-tenant
/// preset names the simulator's tenant as its `issuer` (and Cognito a `domain`), and the
/// endpoints its declaration puts elsewhere than under the issuer point at the simulator.
pub fn enable_presets(
    settings: &mut Settings,
    simulator: &SimulatorHandle,
    client: impl Fn(ProviderKey) -> SimulatedClient,
) {
    for spec in presets() {
        let SimulatedClient {
            client_id,
            client_secret,
            redirect_uri,
        } = client(spec.key);
        let mut config = ProviderConfig::new(client_id, client_secret, redirect_uri);
        let mut endpoints = endpoints(spec.key, simulator);
        if spec.is_per_tenant() {
            config.issuer = endpoints.issuer.take();
            config.domain = spec
                .needs
                .iter()
                .any(|need| need == "domain")
                .then(|| "sim.auth.eu-west-1.amazoncognito.com".to_owned());
        }
        leave_to_the_declaration(&mut endpoints, spec);
        config.endpoints = endpoints;
        config.relay_base_urls = (!spec.relay_base_urls.is_empty())
            .then(|| vec![simulator.api_base(simulator_provider(spec.key))]);
        settings.oauth_providers.insert(spec.key, config);
    }
}

/// Drops the overrides of endpoints `spec` does not have (the simulated provider may serve
/// more) and of those it serves under its tenant's issuer (the issuer puts them in place).
fn leave_to_the_declaration(endpoints: &mut EndpointOverrides, spec: &ProviderSpec) {
    let declared = &spec.endpoints;
    let under_issuer = |url: &str| url.contains(ISSUER);
    let revocation = spec.revocation.as_ref().map(|rules| rules.url.as_str());
    for (overridden, url) in [
        (
            &mut endpoints.authorization,
            Some(declared.authorization.as_str()),
        ),
        (&mut endpoints.token, Some(declared.token.as_str())),
        (&mut endpoints.userinfo, declared.userinfo.as_deref()),
        (&mut endpoints.emails, declared.emails.as_deref()),
        (&mut endpoints.jwks, declared.jwks.as_deref()),
        (&mut endpoints.revocation, revocation),
    ] {
        if url.is_none_or(under_issuer) {
            *overridden = None;
        }
    }
}

fn simulator_provider(key: ProviderKey) -> Provider {
    match key {
        ProviderKey::GOOGLE => Provider::Google,
        ProviderKey::GITHUB => Provider::Github,
        ProviderKey::FACEBOOK => Provider::Facebook,
        ProviderKey::MICROSOFT => Provider::Microsoft,
        ProviderKey::LINKEDIN => Provider::Linkedin,
        ProviderKey::DISCORD => Provider::Discord,
        ProviderKey::TWITTER => Provider::Twitter,
        ProviderKey::APPLE => Provider::Apple,
        ACME_SSO => Provider::StandardOidc,
        CORP => Provider::StandardOauth2,
        other => Provider::preset(other.as_str())
            .unwrap_or_else(|| unreachable!("{other} is not simulated: add it to the simulator")),
    }
}

/// The simulated API of a built-in provider that has an API to relay to (Apple has none);
/// a preset's is set the same way in [`enable_presets`].
fn relay_base(key: ProviderKey, simulator: &SimulatorHandle) -> Option<Vec<String>> {
    let declared = built_in_spec(key).is_some_and(|spec| !spec.relay_base_urls.is_empty());
    declared.then(|| vec![simulator.api_base(simulator_provider(key))])
}

/// The endpoint overrides that send `key`'s adapter to the simulator: every endpoint its
/// simulated provider serves, and the issuer of its id_tokens where it signs them.
pub fn endpoints(key: ProviderKey, simulator: &SimulatorHandle) -> EndpointOverrides {
    let e = simulator.endpoints(simulator_provider(key));
    EndpointOverrides {
        authorization: Some(e.authorization),
        token: Some(e.token),
        userinfo: e.userinfo,
        emails: e.emails,
        // The simulator signs its Security Event Tokens with its id_token keys.
        risc_jwks: e.jwks.clone().filter(|_| key == ProviderKey::GOOGLE),
        jwks: e.jwks,
        refresh: e.refresh,
        issuer: e.issuer,
        revocation: e.revocation,
        risc_issuer: None,
    }
}
