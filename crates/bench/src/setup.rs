//! What the service runs against: the simulated identity provider seeded with the users the
//! logins need, a fresh SQLite database, and a configuration file pointing at both.

use super::States;
use social_login::simulated::{SimulatedClient, register_clients};
use social_login_domain::ProviderKey;
use social_login_simulator::{SimUser, Simulator, SimulatorConfig, SimulatorHandle};
use std::path::PathBuf;
use tempfile::TempDir;

const CLIENT_ID: &str = "bench-client";
const CLIENT_SECRET: &str = "bench-client-secret-value";
const REDIRECT: &str = "http://127.0.0.1:9/auth/callback/github";

pub struct Setup {
    pub config: PathBuf,
    _sim: SimulatorHandle,
    _dir: TempDir,
}

/// The simulated id of the `index`-th benchmark user.
pub fn user_id(index: usize) -> String {
    format!("{}", 10_000_000 + index)
}

impl Setup {
    pub async fn new(users: usize, states: States) -> Result<Self, String> {
        let client = |_: ProviderKey| SimulatedClient {
            client_id: CLIENT_ID.into(),
            client_secret: CLIENT_SECRET.into(),
            redirect_uri: REDIRECT.into(),
        };
        let mut config = register_clients(SimulatorConfig::default(), client);
        for index in 0..users {
            let id = user_id(index);
            config = config.with_user(
                SimUser::new(id.clone(), format!("bench{index}"))
                    .with_email(format!("bench{index}@example.com"), true),
            );
        }
        let sim = Simulator::start(config)
            .await
            .map_err(|error| format!("simulator: {error}"))?;
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let github = sim.github();
        let store = match states {
            States::Memory => "backend = \"memory\"".to_owned(),
            States::Redis => {
                let url = std::env::var("TEST_REDIS_URL")
                    .unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
                format!(
                    "backend = \"redis\"\nurl = \"{url}\"\nkey_prefix = \"bench:{}:\"",
                    uuid::Uuid::new_v4().simple()
                )
            }
        };
        let toml = format!(
            r#"secret_key = "{secret}"

[server]
bind = "127.0.0.1:0"

[database]
url = "sqlite://{db}?mode=rwc"

[oauth_state_store]
{store}

[rate_limit]
enabled = false

[oauth_providers.github]
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
redirect_uri = "{REDIRECT}"

[oauth_providers.github.endpoints]
authorization = "{authorization}"
token = "{token}"
userinfo = "{user}"
emails = "{emails}"
"#,
            secret = social_login_security::generate_secret_key(),
            db = dir.path().join("bench.db").display(),
            authorization = github.authorization,
            token = github.token,
            user = github.user,
            emails = github.emails,
        );
        let config = dir.path().join("social-login.toml");
        std::fs::write(&config, toml).map_err(|error| error.to_string())?;
        Ok(Self {
            config,
            _sim: sim,
            _dir: dir,
        })
    }
}
