//! The demo's configuration: every provider pointed at the simulator.

use crate::settings::Settings;
use crate::simulated::{self, SimulatedClient};
use crate::startup_error::StartupError;
use social_login_domain::ProviderKey;
use social_login_simulator::{SimUser, SimulatorConfig, SimulatorHandle};
use std::path::Path;

/// The demo's files hold its root secret and the users' sealed provider tokens: readable by
/// their owner only (0700 for the directory, 0600 for the files), also when they existed.
mod private {
    use crate::startup_error::StartupError;
    use std::fs::{self, OpenOptions, Permissions};
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    fn failed(path: &Path, error: std::io::Error) -> StartupError {
        StartupError::Database(format!("{}: {error}", path.display()))
    }

    pub fn directory(path: &Path) -> Result<(), StartupError> {
        fs::create_dir_all(path).map_err(|error| failed(path, error))?;
        fs::set_permissions(path, Permissions::from_mode(0o700))
            .map_err(|error| failed(path, error))
    }

    pub fn file(path: &Path) -> Result<(), StartupError> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(|error| failed(path, error))?;
        fs::set_permissions(path, Permissions::from_mode(0o600))
            .map_err(|error| failed(path, error))
    }
}

/// The demo's registration with the simulated provider `key`.
fn client(base: &str, key: ProviderKey) -> SimulatedClient {
    SimulatedClient {
        client_id: format!("demo-{key}"),
        client_secret: format!("demo-secret-{key}"),
        redirect_uri: format!("{base}/demo/callback/{key}"),
    }
}

/// The simulator for the demo: a sign-in page for people, a client per provider, and a
/// few ready-made identities.
pub fn simulator_config(base: &str) -> SimulatorConfig {
    let config = SimulatorConfig::default()
        .interactive()
        .with_user(
            SimUser::new("583231", "adalovelace")
                .with_name("Ada Lovelace")
                .with_email("ada@example.com", true),
        )
        .with_user(
            SimUser::new("1000001", "gracehopper")
                .with_name("Grace Hopper")
                .with_email("grace@example.com", true)
                .with_avatar_url(format!("{base}{}", super::page::AVATAR_PATH)),
        )
        .with_user(
            SimUser::new("1000002", "alanturing")
                .with_name("Alan Turing")
                .with_email("alan@example.com", false),
        )
        .with_user(SimUser::new("1000003", "anonymous"));
    simulated::register_clients(config, |key| client(base, key))
}

/// Settings for the demo: SQLite under `data_dir`, a secret kept there across runs, every
/// provider enabled against the simulator: the eight built-in ones, two providers from
/// configuration ("Acme SSO", "Corp OAuth"), then every preset.
pub fn demo_settings(
    base: &str,
    simulator: &SimulatorHandle,
    data_dir: &Path,
) -> Result<Settings, StartupError> {
    private::directory(data_dir)?;
    let mut settings = Settings::with_secret_key(demo_secret(data_dir)?);
    let database = data_dir.join("demo.db");
    // Created owner-only before SQLite opens it: its -wal and -shm files copy the mode.
    private::file(&database)?;
    settings.database.url = format!("sqlite://{}?mode=rwc", database.display());
    settings.server.bind = base.trim_start_matches("http://").to_owned();
    // Its own address: the base of the discovery document's `jwks_uri` and the issuer.
    settings.server.public_url = Some(base.to_owned());
    simulated::enable_all(&mut settings, simulator, |key| client(base, key));
    // After the eight, through the ordinary settings, as an operator adds providers.
    simulated::enable_standard(&mut settings, simulator, |key| client(base, key));
    simulated::enable_presets(&mut settings, simulator, |key| client(base, key));
    // The "Call the provider's API" panel relays to the simulated providers' APIs.
    settings.relay.enabled = true;
    Ok(settings)
}

/// `secret` passes the `secret_key` checks of every configuration.
fn strong(secret: &str) -> bool {
    match Settings::with_secret_key(secret).validate() {
        Ok(()) => true,
        Err(errors) => !errors.mentions("secret_key"),
    }
}

/// The demo's secret, made once and kept in the data directory so sessions survive a
/// restart. Real deployments take `secret_key` from their configuration.
fn demo_secret(data_dir: &Path) -> Result<String, StartupError> {
    let path = data_dir.join("secret_key");
    private::file(&path)?;
    match std::fs::read_to_string(&path) {
        // A key an older version made may fall short of today's strength check: then a new
        // one (the demo's sessions do not survive that, which is fine for a demo).
        Ok(secret) if strong(secret.trim()) => Ok(secret.trim().to_owned()),
        _ => {
            let secret = social_login_security::generate_secret_key();
            std::fs::write(&path, &secret)
                .map_err(|error| StartupError::Database(format!("{}: {error}", path.display())))?;
            Ok(secret)
        }
    }
}
