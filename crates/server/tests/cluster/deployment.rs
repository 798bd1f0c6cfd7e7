//! A deployment under test: the simulated identity provider in this process, a database and a
//! state store, and any number of real `social-login serve` processes sharing them.

use social_login::simulated::{SimulatedClient, register_clients};
use social_login_domain::ProviderKey;
use social_login_simulator::{SimUser, Simulator, SimulatorConfig, SimulatorHandle};
use social_login_test_support::{PostgresDatabase, postgres_admin_url, redis_url};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;
use tempfile::TempDir;

pub const CLIENT_ID: &str = "cluster-client";
pub const CLIENT_SECRET: &str = "cluster-client-secret-value";
pub const REDIRECT_BASE: &str = "http://127.0.0.1:9/auth/callback/";
pub const SECRET_KEY: &str = "cluster-secret-key-that-is-long-enough-0123456789";

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
        let github = self.sim.github();
        let google = self.sim.google();
        let states = match &self.states {
            Some((url, prefix)) => {
                format!("backend = \"redis\"\nurl = \"{url}\"\nkey_prefix = \"{prefix}\"\n")
            }
            None => "backend = \"memory\"\n".to_owned(),
        };
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

[oauth_providers.github]
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
redirect_uri = "{REDIRECT_BASE}github"

[oauth_providers.github.endpoints]
authorization = "{gh_authorization}"
token = "{gh_token}"
userinfo = "{gh_user}"
emails = "{gh_emails}"

[oauth_providers.google]
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
redirect_uri = "{REDIRECT_BASE}google"

[oauth_providers.google.endpoints]
authorization = "{go_authorization}"
token = "{go_token}"
userinfo = "{go_userinfo}"
jwks = "{go_jwks}"
issuer = "{go_issuer}"
"#,
            database = self.database_url,
            gh_authorization = github.authorization,
            gh_token = github.token,
            gh_user = github.user,
            gh_emails = github.emails,
            go_authorization = google.authorization,
            go_token = google.token,
            go_userinfo = google.userinfo,
            go_jwks = google.jwks,
            go_issuer = google.issuer,
        )
    }

    /// Starts one more `social-login serve` process and waits until it listens.
    pub fn spawn_instance(&self) -> Instance {
        let config = self.dir.path().join("social-login.toml");
        std::fs::write(&config, self.config_toml()).expect("write config");
        Instance::spawn(&config)
    }
}

/// Lines of an instance's log kept for a failure message.
const KEPT_LOG_LINES: usize = 200;

/// One `social-login serve` process. Dropping it kills the process.
pub struct Instance {
    child: Child,
    pub base: String,
    logs: Arc<Mutex<VecDeque<String>>>,
}

impl Instance {
    fn spawn(config: &std::path::Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_social-login"))
            .arg("serve")
            .arg("--config")
            .arg(config)
            // Warnings only, but the line that says where it listens: an access-log line per
            // request would cost more than the requests of a flood.
            .env("RUST_LOG", "warn,social_login::server=info")
            .env_remove("SOCIAL_LOGIN_CONFIG")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("social-login starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let logs = Arc::new(Mutex::new(VecDeque::new()));
        let (listening, address) = mpsc::channel();
        let kept = logs.clone();
        // Keeps draining the pipe for the life of the process, so it never blocks on a
        // full pipe, and keeps only the last lines.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(address) = listening_address(&line) {
                    let _ = listening.send(address);
                }
                let mut kept = kept.lock().unwrap();
                if kept.len() == KEPT_LOG_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let address = address
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("social-login did not start listening within 60 s");
            });
        Self {
            child,
            base: format!("http://{address}"),
            logs,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `kill -9`: no shutdown, no flush, whatever was in flight is cut off.
    pub fn kill_hard(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Resident memory of the process, in KiB (VmRSS).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("process status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS line")
    }

    /// The last log lines, for a failure message.
    pub fn recent_logs(&self) -> String {
        let logs = self.logs.lock().unwrap();
        logs.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn listening_address(line: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(line).ok()?;
    let fields = &entry["fields"];
    (fields["message"] == "social-login listening")
        .then(|| fields["address"].as_str().map(str::to_owned))
        .flatten()
}
