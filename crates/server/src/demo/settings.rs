//! The demo's configuration: every provider pointed at the simulator.

use crate::server::StartupError;
use crate::settings::Settings;
use crate::simulated::{self, SimulatedClient};
use social_login_domain::ProviderKey;
use social_login_simulator::{SimUser, SimulatorConfig, SimulatorHandle};
use std::path::Path;

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
                .with_email("grace@example.com", true),
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
/// provider enabled against the simulator.
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
    simulated::enable_all(&mut settings, simulator, |key| client(base, key));
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
