//! The demo's configuration: every available provider pointed at the simulator.

use crate::server::StartupError;
use crate::settings::{ProviderConfig, Settings};
use social_login_domain::ProviderKey;
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, AppleTeam, Provider,
    RegisteredClient, SimUser, SimulatorConfig, SimulatorHandle,
};
use std::path::Path;

/// The providers this build can run in the demo, with their simulator endpoints.
fn providers(simulator: &SimulatorHandle) -> Vec<(ProviderKey, Provider, Endpoints)> {
    let github = simulator.github();
    let google = simulator.google();
    let discord = simulator.discord();
    let facebook = simulator.facebook();
    let twitter = simulator.twitter();
    let microsoft = simulator.microsoft();
    let linkedin = simulator.linkedin();
    let apple = simulator.apple();
    vec![
        (
            ProviderKey::Github,
            Provider::Github,
            Endpoints {
                authorization: github.authorization,
                token: github.token,
                userinfo: Some(github.user),
                emails: Some(github.emails),
                jwks: None,
                issuer: None,
            },
        ),
        (
            ProviderKey::Google,
            Provider::Google,
            Endpoints {
                authorization: google.authorization,
                token: google.token,
                userinfo: Some(google.userinfo),
                emails: None,
                jwks: Some(google.jwks),
                issuer: Some(google.issuer),
            },
        ),
        (
            ProviderKey::Discord,
            Provider::Discord,
            Endpoints {
                authorization: discord.authorization,
                token: discord.token,
                userinfo: Some(discord.user),
                emails: None,
                jwks: None,
                issuer: None,
            },
        ),
        (
            ProviderKey::Microsoft,
            Provider::Microsoft,
            Endpoints {
                authorization: microsoft.authorization,
                token: microsoft.token,
                userinfo: None,
                emails: None,
                jwks: Some(microsoft.jwks),
                issuer: Some(microsoft.issuer),
            },
        ),
        (
            ProviderKey::Linkedin,
            Provider::Linkedin,
            Endpoints {
                authorization: linkedin.authorization,
                token: linkedin.token,
                userinfo: Some(linkedin.userinfo),
                emails: None,
                jwks: Some(linkedin.jwks),
                issuer: Some(linkedin.issuer),
            },
        ),
        (
            ProviderKey::Facebook,
            Provider::Facebook,
            Endpoints {
                authorization: facebook.authorization,
                token: facebook.token,
                userinfo: Some(facebook.me),
                emails: None,
                jwks: None,
                issuer: None,
            },
        ),
        (
            ProviderKey::Twitter,
            Provider::Twitter,
            Endpoints {
                authorization: twitter.authorization,
                token: twitter.token,
                userinfo: Some(twitter.user),
                emails: None,
                jwks: None,
                issuer: None,
            },
        ),
        (
            ProviderKey::Apple,
            Provider::Apple,
            Endpoints {
                authorization: apple.authorization,
                token: apple.token,
                userinfo: None,
                emails: None,
                jwks: Some(apple.jwks),
                issuer: Some(apple.issuer),
            },
        ),
    ]
}

/// The providers the demo enables, in the order of its buttons.
const DEMO_PROVIDERS: [(ProviderKey, Provider); 8] = [
    (ProviderKey::Github, Provider::Github),
    (ProviderKey::Google, Provider::Google),
    (ProviderKey::Microsoft, Provider::Microsoft),
    (ProviderKey::Linkedin, Provider::Linkedin),
    (ProviderKey::Facebook, Provider::Facebook),
    (ProviderKey::Discord, Provider::Discord),
    (ProviderKey::Twitter, Provider::Twitter),
    (ProviderKey::Apple, Provider::Apple),
];

struct Endpoints {
    authorization: String,
    token: String,
    userinfo: Option<String>,
    emails: Option<String>,
    jwks: Option<String>,
    issuer: Option<String>,
}

fn client_id(key: ProviderKey) -> String {
    format!("demo-{key}")
}

fn client_secret(key: ProviderKey) -> String {
    format!("demo-secret-{key}")
}

fn redirect_uri(base: &str, key: ProviderKey) -> String {
    format!("{base}/demo/callback/{key}")
}

/// The simulator for the demo: a sign-in page for people, a client per provider, and a
/// few ready-made identities.
pub fn simulator_config(base: &str) -> SimulatorConfig {
    let mut config = SimulatorConfig::default()
        .interactive()
        .with_user(
            SimUser::new("583231", "adalovelace")
                .with_name("Ada Lovelace")
                .with_email("ada@example.com", true),
        )
        .with_user(
            SimUser::new("1000001", "gracehopper")
                .with_name("Grace Hopper")
                .with_email("grace@example.com", true),
        )
        .with_user(
            SimUser::new("1000002", "alanturing")
                .with_name("Alan Turing")
                .with_email("alan@example.com", false),
        )
        .with_user(SimUser::new("1000003", "anonymous"))
        // Apple verifies our ES256 client secret against this team's public key.
        .with_apple_team(AppleTeam::test_fixture());
    for (key, provider) in DEMO_PROVIDERS {
        config = config.with_client(RegisteredClient::new(
            provider,
            client_id(key),
            client_secret(key),
            redirect_uri(base, key),
        ));
    }
    config
}

/// Settings for the demo: SQLite under `data_dir`, a secret kept there across runs, every
/// provider of [`providers`] enabled against the simulator.
pub fn demo_settings(
    base: &str,
    simulator: &SimulatorHandle,
    data_dir: &Path,
) -> Result<Settings, StartupError> {
    std::fs::create_dir_all(data_dir)
        .map_err(|error| StartupError::Database(format!("{}: {error}", data_dir.display())))?;
    let mut settings = Settings::with_secret_key(demo_secret(data_dir)?);
    settings.database.url = format!("sqlite://{}?mode=rwc", data_dir.join("demo.db").display());
    settings.server.bind = base.trim_start_matches("http://").to_owned();
    // The simulator's test team: a fixture key, fine for a demo and nothing else.
    settings.apple_team_id = Some(APPLE_TEST_TEAM_ID.to_owned());
    settings.apple_key_id = Some(APPLE_TEST_KEY_ID.to_owned());
    settings.apple_private_key_pem = Some(APPLE_TEST_KEY_PEM.to_owned().into());
    for (key, _, endpoints) in providers(simulator) {
        let mut config =
            ProviderConfig::new(client_id(key), client_secret(key), redirect_uri(base, key));
        config.endpoints.authorization = Some(endpoints.authorization);
        config.endpoints.token = Some(endpoints.token);
        config.endpoints.userinfo = endpoints.userinfo;
        config.endpoints.emails = endpoints.emails;
        config.endpoints.jwks = endpoints.jwks;
        config.endpoints.issuer = endpoints.issuer;
        *settings.oauth_providers.slot_mut(key) = Some(config);
    }
    Ok(settings)
}

/// The demo's secret, made once and kept in the data directory so sessions survive a
/// restart. Real deployments take `secret_key` from their configuration.
fn demo_secret(data_dir: &Path) -> Result<String, StartupError> {
    let path = data_dir.join("secret_key");
    match std::fs::read_to_string(&path) {
        Ok(secret) if secret.trim().len() >= 32 => Ok(secret.trim().to_owned()),
        _ => {
            let secret = social_login_security::generate_secret_key();
            std::fs::write(&path, &secret)
                .map_err(|error| StartupError::Database(format!("{}: {error}", path.display())))?;
            Ok(secret)
        }
    }
}
