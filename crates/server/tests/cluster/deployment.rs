//! A deployment under test: the simulated identity provider in this process, a database and a
//! state store, and any number of real `social-login serve` processes sharing them.

use super::flows::Browser;
use social_login::settings::EndpointOverrides;
use social_login::simulated::{self, SimulatedClient, register_clients};
use social_login_domain::ProviderKey;
use social_login_simulator::{SimUser, Simulator, SimulatorConfig, SimulatorHandle};
use social_login_test_support::{
    Launch, PostgresDatabase, ServiceProcess, postgres_admin_url, redis_url,
};
use std::path::Path;
use tempfile::TempDir;

/// One `social-login serve` process of the deployment.
pub type Instance = ServiceProcess;

pub const CLIENT_ID: &str = "cluster-client";
pub const CLIENT_SECRET: &str = "cluster-client-secret-value";
pub const REDIRECT_BASE: &str = "http://127.0.0.1:9/auth/callback/";
/// An output of `social-login gen-secret`, as the strength check requires.
pub const SECRET_KEY: &str = "by-FWhnPLa9bdgSOcwobsbC1oVsvKWEMcpV2vl3d2H8bMgEGp7fzNv7Na0Uk8YhS";

/// Ada, the person most tests sign in as (her GitHub and Google accounts are the same id).
pub fn ada() -> SimUser {
    SimUser::new("583231", "adalovelace")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

/// What `setup` started, or, where PostgreSQL or Redis is not configured (see
/// [`Deployment::new`]: skipped loudly, failing under `CI`), a return from the test.
macro_rules! or_skip {
    ($setup:expr) => {
        match $setup {
            Some(started) => started,
            None => return,
        }
    };
}
pub(crate) use or_skip;

/// A deployment as production runs it (PostgreSQL and Redis) with two instances, each with
/// `extra` appended to its configuration, and a browser to drive them; `None` where those
/// are not configured (see [`Deployment::new`]).
pub async fn two_instances(
    users: Vec<SimUser>,
    extra: &str,
) -> Option<(Deployment, Instance, Instance, Browser)> {
    let deployment = Deployment::new(Database::Postgres, States::Redis, users).await?;
    let a = deployment.spawn_instance_with(extra);
    let b = deployment.spawn_instance_with(extra);
    Some((deployment, a, b, Browser::new()))
}

/// Where the users, links and refresh tokens live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Database {
    Sqlite,
    Postgres,
}

/// Where spent state ids live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum States {
    Memory,
    Redis,
}

pub struct Deployment {
    pub sim: SimulatorHandle,
    pub database_url: String,
    states: Option<(String, String)>,
    dir: TempDir,
    _postgres: Option<PostgresDatabase>,
}

/// `key`'s table: the cluster's client, and every endpoint of `endpoints` (the signal
/// fields too).
fn provider_toml(key: ProviderKey, endpoints: &EndpointOverrides) -> String {
    let mut table = format!(
        "\n[oauth_providers.{key}]\nclient_id = \"{CLIENT_ID}\"\n\
         client_secret = \"{CLIENT_SECRET}\"\nredirect_uri = \"{REDIRECT_BASE}{key}\"\n\n\
         [oauth_providers.{key}.endpoints]\n"
    );
    let signals = [
        ("risc_jwks", &endpoints.risc_jwks),
        ("risc_issuer", &endpoints.risc_issuer),
    ];
    let signals = signals
        .into_iter()
        .filter_map(|(name, url)| Some((name, url.as_deref()?)));
    for (name, url) in endpoints.iter().chain(signals) {
        table.push_str(&format!("{name} = \"{url}\"\n"));
    }
    table
}

fn client(key: ProviderKey) -> SimulatedClient {
    SimulatedClient {
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        redirect_uri: format!("{REDIRECT_BASE}{key}"),
    }
}

impl Deployment {
    /// A fresh database (and Redis key prefix) with the simulator seeded with `users`.
    /// `None` when PostgreSQL or Redis is needed but not configured on this machine (the
    /// helpers say SKIPPED; under `CI` they fail instead).
    pub async fn new(database: Database, states: States, users: Vec<SimUser>) -> Option<Self> {
        let postgres = match database {
            Database::Postgres => Some(PostgresDatabase::create(&postgres_admin_url()?).await),
            Database::Sqlite => None,
        };
        let states = match states {
            States::Redis => Some((
                redis_url()?,
                format!("cluster-test:{}:", uuid::Uuid::new_v4().simple()),
            )),
            States::Memory => None,
        };
        let mut config = register_clients(SimulatorConfig::default(), client);
        for user in users {
            config = config.with_user(user);
        }
        let sim = Simulator::start(config).await.expect("simulator starts");
        let dir = tempfile::tempdir().expect("temp dir");
        let database_url = match &postgres {
            Some(database) => database.url().to_owned(),
            None => format!(
                "sqlite://{}?mode=rwc",
                dir.path().join("social-login.db").display()
            ),
        };
        Some(Self {
            sim,
            database_url,
            states,
            dir,
            _postgres: postgres,
        })
    }

    /// The Redis URL the instances are given.
    pub fn redis_url(&self) -> &str {
        let (url, _) = self.states.as_ref().expect("a Redis deployment");
        url
    }

    /// Sends the instances started from now on to Redis at `url` instead.
    pub fn set_redis_url(&mut self, url: String) {
        let (current, _) = self.states.as_mut().expect("a Redis deployment");
        *current = url;
    }

    /// The configuration every instance runs with: GitHub and Google at the simulator,
    /// no rate limit (the tests are the flood).
    pub fn config_toml(&self) -> String {
        let states = match &self.states {
            Some((url, prefix)) => {
                format!("backend = \"redis\"\nurl = \"{url}\"\nkey_prefix = \"{prefix}\"\n")
            }
            None => "backend = \"memory\"\n".to_owned(),
        };
        let [github, google] = [ProviderKey::GITHUB, ProviderKey::GOOGLE]
            .map(|key| provider_toml(key, &simulated::endpoints(key, &self.sim)));
        format!(
            r#"secret_key = "{SECRET_KEY}"

[server]
bind = "127.0.0.1:0"

[database]
url = "{database}"

[oauth_state_store]
{states}
[rate_limit]
enabled = false
{github}{google}"#,
            database = self.database_url,
        )
    }

    /// Starts one more `social-login serve` process and waits until it listens.
    pub fn spawn_instance(&self) -> Instance {
        self.spawn_instance_with("")
    }

    /// [`Self::spawn_instance`] with `extra` TOML tables appended to the configuration.
    pub fn spawn_instance_with(&self, extra: &str) -> Instance {
        let config = self.dir.path().join("social-login.toml");
        std::fs::write(&config, format!("{}{extra}", self.config_toml())).expect("write config");
        let launch = Launch {
            // Warnings only, but the line that says where it listens: an access-log line
            // per request would cost more than the requests of a flood.
            log_filter: "warn,social_login::server=info",
            cpu: None,
        };
        ServiceProcess::start(
            Path::new(env!("CARGO_BIN_EXE_social-login")),
            &config,
            &launch,
        )
    }
}
