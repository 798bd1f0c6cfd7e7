//! What the service runs against: the simulated identity provider seeded with the users the
//! logins need, a fresh database (SQLite, or PostgreSQL on `TEST_POSTGRES_URL`) optionally
//! seeded with many more users, and a configuration file pointing at both.

use super::{Database, States};
use crate::round_trips::RoundTripCounter;
use social_login::simulated::{SimulatedClient, register_clients};
use social_login_domain::ProviderKey;
use social_login_persistence::{DatabaseOptions, connect, seed_events, seed_provider_users};
use social_login_simulator::{Provider, SimUser, Simulator, SimulatorConfig, SimulatorHandle};
use social_login_test_support::{PostgresDatabase, postgres_admin_url, redis_url};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Instant;
use tempfile::TempDir;

const CLIENT_ID: &str = "bench-client";
const CLIENT_SECRET: &str = "bench-client-secret-value";
const REDIRECT: &str = "http://127.0.0.1:9/auth/callback/github";
/// The operator API's key in the benchmark's configuration (only its hash is configured).
pub const ADMIN_KEY: &str = "sla_the-benchmark-admin-key-0123456789abcdefghijklmn";

pub struct Setup {
    pub config: PathBuf,
    /// The service's database, not through the round-trip counter.
    pub database_url: String,
    /// Counts the service's round trips to PostgreSQL (PostgreSQL only).
    pub round_trips: Option<RoundTripCounter>,
    sim: SimulatorHandle,
    _dir: TempDir,
    _postgres: Option<PostgresDatabase>,
}

/// The simulated id of the `index`-th benchmark user.
pub fn user_id(index: usize) -> String {
    format!("{}", 10_000_000 + index)
}

impl Setup {
    /// `users` benchmark users in the simulator; `seed` more users already in the database.
    pub async fn new(
        users: usize,
        (seed, seed_events): (u64, u64),
        (database, states): (Database, States),
        (presets, telemetry): (bool, bool),
    ) -> Result<Self, String> {
        let sim = simulator(users).await?;
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let postgres = match database {
            Database::Sqlite => None,
            Database::Postgres => {
                let admin =
                    postgres_admin_url().ok_or("--database postgres needs TEST_POSTGRES_URL")?;
                Some(PostgresDatabase::create_durable(&admin).await)
            }
        };
        let database_url = match &postgres {
            Some(database) => database.url().to_owned(),
            None => format!(
                "sqlite://{}?mode=rwc",
                dir.path().join("bench.db").display()
            ),
        };
        if seed > 0 || seed_events > 0 {
            seed_database(&database_url, seed, seed_events).await?;
        }
        let round_trips = match &postgres {
            Some(database) => Some(
                RoundTripCounter::start(socket_address(database.url())?)
                    .await
                    .map_err(|error| format!("round-trip counter: {error}"))?,
            ),
            None => None,
        };
        let routed_url = match &round_trips {
            Some(counter) => counter.route(&database_url)?,
            None => database_url.clone(),
        };
        let store = match states {
            States::Memory => "backend = \"memory\"".to_owned(),
            States::Redis => {
                let url = redis_url().ok_or("--states redis needs TEST_REDIS_URL")?;
                format!(
                    "backend = \"redis\"\nurl = \"{url}\"\nkey_prefix = \"bench:{}:\"",
                    uuid::Uuid::new_v4().simple()
                )
            }
        };
        let config = dir.path().join("social-login.toml");
        let mut text = config_toml(&sim, &routed_url, &store);
        if presets {
            text.push_str(&preset_tables());
        }
        if telemetry {
            let sink = trace_sink().await?;
            text.push_str(&format!("\n[telemetry]\notlp_endpoint = \"{sink}\"\n"));
        }
        std::fs::write(&config, text).map_err(|error| error.to_string())?;
        Ok(Self {
            config,
            database_url,
            round_trips,
            sim,
            _dir: dir,
            _postgres: postgres,
        })
    }
}

impl Setup {
    /// Where the simulated GitHub's API is (the relay's base).
    pub fn api_base(&self) -> String {
        self.sim.api_base(Provider::Github)
    }

    /// An id_token the simulated Google signs for the benchmark's client about the
    /// `index`-th native user (Google accounts of their own, so no login meets another
    /// account's email), with `nonce`.
    pub fn mint_google_id_token(&self, index: usize, nonce: &str) -> String {
        let user = SimUser::new(format!("native{index}"), format!("native{index}"))
            .with_email(format!("native{index}@example.com"), true);
        self.sim
            .mint_id_token(Provider::Google, &user, CLIENT_ID, Some(nonce))
    }

    /// The access tokens the simulator issued, oldest first.
    pub fn issued_access_tokens(&self) -> Vec<String> {
        self.sim.issued_access_tokens()
    }
}

/// A collector that takes every OTLP/HTTP export and keeps nothing: what exporting traces
/// costs the service, not what a collector does with them. Its base URL.
async fn trace_sink() -> Result<String, String> {
    let router = axum::Router::new().route(
        "/v1/traces",
        axum::routing::post(|_: axum::body::Bytes| async { axum::http::StatusCode::OK }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|error| error.to_string())?;
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(format!("http://{address}"))
}

/// Where a `postgres://` URL points.
fn socket_address(url: &str) -> Result<SocketAddr, String> {
    let parsed = url::Url::parse(url).map_err(|error| error.to_string())?;
    let host = parsed.host_str().ok_or("the database URL names no host")?;
    (host, parsed.port().unwrap_or(5432))
        .to_socket_addrs()
        .map_err(|error| format!("cannot resolve {host}: {error}"))?
        .next()
        .ok_or_else(|| format!("{host} resolves to no address"))
}

async fn simulator(users: usize) -> Result<SimulatorHandle, String> {
    let client = |_: ProviderKey| SimulatedClient {
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        redirect_uri: REDIRECT.into(),
    };
    let mut config = register_clients(SimulatorConfig::default(), client);
    for index in 0..users {
        config = config.with_user(bench_user(index));
    }
    Simulator::start(config)
        .await
        .map_err(|error| format!("simulator: {error}"))
}

/// The `index`-th benchmark user, as the simulator knows them.
fn bench_user(index: usize) -> SimUser {
    SimUser::new(user_id(index), format!("bench{index}"))
        .with_email(format!("bench{index}@example.com"), true)
}

/// A table for every preset, as an operator enables one: the client registration, and a
/// per-tenant preset's tenant. Nothing signs in with them: they cost start-up and memory.
fn preset_tables() -> String {
    let mut tables = String::new();
    for spec in social_login_provider_core::spec::presets() {
        tables.push_str(&format!(
            "\n[oauth_providers.{key}]\nclient_id = \"{CLIENT_ID}\"\n\
             client_secret = \"{CLIENT_SECRET}\"\nredirect_uri = \"{REDIRECT}\"\n",
            key = spec.key
        ));
        for need in &spec.needs {
            let value = match need.as_str() {
                "domain" => "bench.auth.eu-west-1.amazoncognito.com",
                _ => "https://tenant.example.com",
            };
            tables.push_str(&format!("{need} = \"{value}\"\n"));
        }
    }
    tables
}

/// Migrates and fills the database before any service starts, so the service then starts
/// on an existing database, as a restart in production does.
async fn seed_database(url: &str, count: u64, events: u64) -> Result<(), String> {
    let started = Instant::now();
    let repo = connect(&DatabaseOptions::new(url))
        .await
        .map_err(|error| error.to_string())?;
    repo.migrate().await.map_err(|error| error.to_string())?;
    seed_provider_users(&repo, ProviderKey::GITHUB, "seed", count)
        .await
        .map_err(|error| error.to_string())?;
    if events > 0 {
        seed_events(&repo, events)
            .await
            .map_err(|error| error.to_string())?;
        println!("seeded {events} audit events");
    }
    repo.connection().close_by_ref().await.ok();
    println!(
        "seeded {count} users with their GitHub links in {:.1} s\n",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn config_toml(sim: &SimulatorHandle, database_url: &str, store: &str) -> String {
    let (github, google) = (sim.github(), sim.google());
    format!(
        r#"secret_key = "{secret}"

[server]
bind = "127.0.0.1:0"

[database]
url = "{database_url}"

[oauth_state_store]
{store}

[rate_limit]
enabled = false

[admin]
api_keys = ["{admin_hash}"]

[relay]
enabled = true

[http]
max_in_flight = 4096
# One client (the benchmark) opens every connection.
max_connections_per_ip = 4096

[oauth_providers.github]
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
redirect_uri = "{REDIRECT}"
relay_base_urls = ["{api}"]

[oauth_providers.github.endpoints]
authorization = "{authorization}"
token = "{token}"
userinfo = "{user}"
emails = "{emails}"

# Native sign-in (`id-token`): the simulated Google's keys and issuer.
[oauth_providers.google]
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
redirect_uri = "{REDIRECT}"

[oauth_providers.google.endpoints]
authorization = "{google_authorization}"
token = "{google_token}"
userinfo = "{google_userinfo}"
jwks = "{google_jwks}"
issuer = "{google_issuer}"
"#,
        secret = social_login_security::generate_secret_key(),
        admin_hash = social_login_security::AdminKeyHash::of(ADMIN_KEY),
        authorization = github.authorization,
        token = github.token,
        user = github.user,
        emails = github.emails,
        api = sim.api_base(Provider::Github),
        google_authorization = google.authorization,
        google_token = google.token,
        google_userinfo = google.userinfo,
        google_jwks = google.jwks,
        google_issuer = google.issuer,
    )
}
