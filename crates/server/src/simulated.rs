//! Pointing the service at the built-in simulated identity provider: the one mapping from
//! provider keys to simulator endpoints, shared by `demo` and the end-to-end tests.

use crate::settings::{EndpointOverrides, ProviderConfig, Settings};
use social_login_domain::ProviderKey;
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

/// Registers a client for every provider, and the fixture team Apple verifies our ES256
/// client secret against.
pub fn register_clients(
    mut config: SimulatorConfig,
    client: impl Fn(ProviderKey) -> SimulatedClient,
) -> SimulatorConfig {
    for key in ProviderKey::BUILT_IN {
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
        settings.oauth_providers.insert(key, config);
    }
    settings.apple_team_id = Some(APPLE_TEST_TEAM_ID.to_owned());
    settings.apple_key_id = Some(APPLE_TEST_KEY_ID.to_owned());
    settings.apple_private_key_pem = Some(APPLE_TEST_KEY_PEM.to_owned().into());
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
        other => unreachable!("{other} is not simulated: add it to the simulator"),
    }
}

/// The endpoint overrides that send `key`'s adapter to the simulator.
fn endpoints(key: ProviderKey, simulator: &SimulatorHandle) -> EndpointOverrides {
    let code_flow = |authorization: String, token: String| EndpointOverrides {
        authorization: Some(authorization),
        token: Some(token),
        ..EndpointOverrides::default()
    };
    match key {
        ProviderKey::GITHUB => {
            let e = simulator.github();
            EndpointOverrides {
                userinfo: Some(e.user),
                emails: Some(e.emails),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::GOOGLE => {
            let e = simulator.google();
            EndpointOverrides {
                userinfo: Some(e.userinfo),
                // The simulator signs its Security Event Tokens with its id_token keys.
                risc_jwks: Some(e.jwks.clone()),
                jwks: Some(e.jwks),
                issuer: Some(e.issuer),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::FACEBOOK => {
            let e = simulator.facebook();
            EndpointOverrides {
                userinfo: Some(e.me),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::MICROSOFT => {
            let e = simulator.microsoft();
            EndpointOverrides {
                jwks: Some(e.jwks),
                issuer: Some(e.issuer),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::LINKEDIN => {
            let e = simulator.linkedin();
            EndpointOverrides {
                userinfo: Some(e.userinfo),
                jwks: Some(e.jwks),
                issuer: Some(e.issuer),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::DISCORD => {
            let e = simulator.discord();
            EndpointOverrides {
                userinfo: Some(e.user),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::TWITTER => {
            let e = simulator.twitter();
            EndpointOverrides {
                userinfo: Some(e.user),
                revocation: Some(e.revocation),
                ..code_flow(e.authorization, e.token)
            }
        }
        ProviderKey::APPLE => {
            let e = simulator.apple();
            EndpointOverrides {
                jwks: Some(e.jwks),
                issuer: Some(e.issuer),
                revocation: Some(e.revoke),
                ..code_flow(e.authorization, e.token)
            }
        }
        other => unreachable!("{other} is not simulated: add it to the simulator"),
    }
}
