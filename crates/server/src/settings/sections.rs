//! The small tables of the configuration file (`[database]`, `[http]`, …) with their defaults.

use super::redact::redact_url_password;
use serde::Deserialize;
use social_login_persistence::DatabaseOptions;

/// `[database]`: a SQLite or PostgreSQL connection URL and the PostgreSQL pool size.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseSettings {
    /// `sqlite://…` or `postgres://…`.
    #[debug("{:?}", redact_url_password(url))]
    pub url: String,
    /// Size of the PostgreSQL connection pool. SQLite always uses exactly one connection.
    pub max_connections: u32,
}

impl Default for DatabaseSettings {
    fn default() -> Self {
        Self {
            url: "sqlite://social-login.db?mode=rwc".to_owned(),
            max_connections: DatabaseOptions::DEFAULT_MAX_CONNECTIONS,
        }
    }
}

impl DatabaseSettings {
    /// What the persistence adapter opens.
    pub fn options(&self) -> DatabaseOptions {
        DatabaseOptions {
            url: self.url.clone(),
            max_connections: self.max_connections,
        }
    }

    pub fn is_sqlite(&self) -> bool {
        self.url.starts_with("sqlite:")
    }
}

/// Which adapter keeps OAuth state values (docs/configuration.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StateStoreBackend {
    /// In-process map: a single instance only.
    #[default]
    Memory,
    /// Redis: needed as soon as more than one process serves the API.
    Redis,
}

impl StateStoreBackend {
    /// Whether what the store remembers (spent state values, used id_tokens) dies with the
    /// process, so a restarted one must refuse what an earlier process may have seen used.
    pub fn forgets_on_restart(self) -> bool {
        self == Self::Memory
    }
}

/// `[oauth_state_store]`.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OAuthStateStoreSettings {
    pub backend: StateStoreBackend,
    /// `redis://` or `rediss://` URL; required when `backend = "redis"`.
    #[debug("{:?}", url.as_deref().map(redact_url_password))]
    pub url: Option<String>,
    /// Every Redis key the service writes starts with it, so several deployments (or other
    /// applications) can share one Redis.
    pub key_prefix: String,
    /// Time to live of a state value; at most [`MAX_STATE_TTL_SECONDS`].
    pub ttl_seconds: u64,
    /// Memory backend only: most spent state ids and used id_tokens held; a full store
    /// answers 503 rather than forget one early.
    pub max_entries: usize,
    /// Memory backend only: most password attempt counts held, apart from `max_entries`, so
    /// that attempts can never crowd out OAuth.
    pub max_attempt_entries: usize,
}

/// Longest `ttl_seconds`: a sign-in at a provider takes minutes, and a value that lives
/// longer only widens the window in which a leaked one can be used.
pub const MAX_STATE_TTL_SECONDS: u64 = 3600;

/// The default `key_prefix` (docs/configuration.md).
pub const DEFAULT_KEY_PREFIX: &str = "social-login:";

impl Default for OAuthStateStoreSettings {
    fn default() -> Self {
        Self {
            backend: StateStoreBackend::Memory,
            url: None,
            key_prefix: DEFAULT_KEY_PREFIX.to_owned(),
            ttl_seconds: 600,
            max_entries: social_login_state_store::DEFAULT_MAX_ENTRIES,
            max_attempt_entries: social_login_state_store::DEFAULT_MAX_ATTEMPT_ENTRIES,
        }
    }
}

impl OAuthStateStoreSettings {
    pub fn ttl(&self) -> time::Duration {
        seconds(self.ttl_seconds)
    }
}

/// `[tokens]`: lifetimes of the service's own access and refresh tokens, and the claims other
/// services check in an access token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TokenSettings {
    pub access_ttl_seconds: u64,
    /// Lifetime of each refresh token; every rotation issues a new one.
    pub refresh_ttl_seconds: u64,
    /// Absolute end of a session, however often its refresh token was rotated.
    pub refresh_family_max_seconds: u64,
    /// How recent the session's login must be to delete the account or link a provider
    /// account; a refresh does not count as a login.
    pub reauthentication_seconds: u64,
    /// The `iss` of access tokens. Unset: `server.public_url` when that is set, else
    /// [`DEFAULT_ISSUER`] (see `Settings::issuer`).
    pub issuer: Option<String>,
    /// The `aud` of access tokens; unset: none, and a token that carries one is refused.
    pub audience: Option<String>,
}

/// The default `[tokens] issuer` (docs/api.md#sessions-and-access-tokens).
pub const DEFAULT_ISSUER: &str = "social-login";

impl Default for TokenSettings {
    fn default() -> Self {
        Self {
            access_ttl_seconds: 900,
            refresh_ttl_seconds: 2_592_000,
            refresh_family_max_seconds: 7_776_000,
            reauthentication_seconds: 300,
            issuer: None,
            audience: None,
        }
    }
}

impl TokenSettings {
    pub fn access_ttl(&self) -> time::Duration {
        seconds(self.access_ttl_seconds)
    }

    pub fn refresh_ttl(&self) -> time::Duration {
        seconds(self.refresh_ttl_seconds)
    }

    pub fn refresh_family_max(&self) -> time::Duration {
        seconds(self.refresh_family_max_seconds)
    }

    pub fn reauthentication(&self) -> time::Duration {
        seconds(self.reauthentication_seconds)
    }
}

/// `[http]`: the outbound timeout and the bounds on inbound requests.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    /// Each call to a provider; past it the request fails with 502.
    pub provider_timeout_seconds: u64,
    /// Larger request bodies are 413.
    pub max_body_bytes: usize,
    /// A connection that has not sent a whole request head by then is closed (also an idle
    /// keep-alive connection: it is waiting for its next head).
    pub header_read_timeout_seconds: u64,
    /// A request whose body and handling take longer is answered 408 and its connection closed.
    pub request_timeout_seconds: u64,
    /// Receiving a request's body, from its complete head; past it 408 and the connection is
    /// closed. A request holds no in-flight slot while its body arrives.
    pub body_read_timeout_seconds: u64,
    /// Requests handled at once, counted once their body is read; more are answered 503 at
    /// once (`/healthz` is exempt).
    pub max_in_flight: usize,
    /// Open connections one client holds at most (counted at accept by the TCP peer's
    /// address, IPv6 peers by `rate_limit.ipv6_prefix`; trusted proxies are exempt); more
    /// are closed at once.
    pub max_connections_per_ip: usize,
    /// Password hashes computed at once (each holds 19 MiB); unset: one per CPU.
    pub max_concurrent_password_hashes: Option<usize>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            provider_timeout_seconds: 10,
            max_body_bytes: 65_536,
            header_read_timeout_seconds: 10,
            request_timeout_seconds: 30,
            body_read_timeout_seconds: 5,
            max_in_flight: 512,
            max_connections_per_ip: 64,
            max_concurrent_password_hashes: None,
        }
    }
}

impl HttpSettings {
    /// A `std` duration because reqwest takes one.
    pub fn provider_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.provider_timeout_seconds)
    }

    pub fn header_read_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.header_read_timeout_seconds)
    }

    pub fn request_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.request_timeout_seconds)
    }

    pub fn body_read_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.body_read_timeout_seconds)
    }
}

/// `[rate_limit]`: per client IP, on the endpoints that need no bearer token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitSettings {
    pub enabled: bool,
    /// Sustained requests per second.
    pub per_second: u64,
    /// Requests allowed at once before 429.
    pub burst: u32,
    /// IPv6 clients are counted per network of this many leading bits (one subscriber
    /// usually has a whole /64); IPv4 clients per address.
    pub ipv6_prefix: u8,
    /// Failed password logins of one account, from anywhere, in 15 minutes, past which
    /// every attempt for it is slowed (never refused).
    pub password_attempts_per_account: u64,
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            per_second: 10,
            burst: 50,
            ipv6_prefix: 64,
            password_attempts_per_account: social_login_domain::throttle::DEFAULT_ACCOUNT_FAILURES,
        }
    }
}

impl RateLimitSettings {
    /// Time to earn back one request: `1 s / per_second`.
    ///
    /// tower_governor's `per_second(n)` means "one request every n seconds", the inverse of
    /// our field, so give it this interval through `period(…)` instead.
    pub fn replenish_interval(&self) -> std::time::Duration {
        let per_second = u32::try_from(self.per_second.max(1)).unwrap_or(u32::MAX);
        // Never zero: a zero period is no rate at all to the limiter.
        (std::time::Duration::from_secs(1) / per_second).max(std::time::Duration::from_nanos(1))
    }
}

/// `[signup]`: who may register without a provider.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SignupSettings {
    /// `false`: `POST /auth/register` answers 403 `SignupNotAllowed`; password logins of
    /// existing users go on.
    pub password: bool,
}

impl Default for SignupSettings {
    fn default() -> Self {
        Self { password: true }
    }
}

/// `[audit]`: how long audit events are kept.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditSettings {
    /// Events older than this many days are deleted by the background housekeeping, in
    /// bounded batches (1 to 36,500; default 400).
    pub retention_days: u64,
}

impl Default for AuditSettings {
    fn default() -> Self {
        Self {
            retention_days: 400,
        }
    }
}

impl AuditSettings {
    pub fn retention(&self) -> time::Duration {
        seconds(self.retention_days.saturating_mul(86_400))
    }

    pub(super) fn check(&self, errors: &mut super::ConfigErrors) {
        if !(1..=36_500).contains(&self.retention_days) {
            errors.push("audit.retention_days", "must be between 1 and 36500");
        }
    }
}

/// Validation caps every `*_seconds` field far below `i64::MAX`, so this never saturates in
/// practice; saturating keeps date arithmetic on an unvalidated value from panicking.
fn seconds(value: u64) -> time::Duration {
    time::Duration::seconds(i64::try_from(value).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_and_redis_passwords_never_show_in_debug() {
        let database = DatabaseSettings {
            url: "postgres://app:hunter2-secret@db:5432/users".into(),
            ..DatabaseSettings::default()
        };
        let states = OAuthStateStoreSettings {
            backend: StateStoreBackend::Redis,
            url: Some("redis://:hunter3-secret@cache:6379".into()),
            ..OAuthStateStoreSettings::default()
        };
        let in_query = DatabaseSettings {
            url: "postgres://app@db/users?sslmode=require&PassWord=hunter4-secret".into(),
            ..DatabaseSettings::default()
        };
        for shown in [
            format!("{database:?}"),
            format!("{states:?}"),
            format!("{in_query:?}"),
        ] {
            assert!(!shown.contains("-secret"), "{shown}");
            assert!(shown.contains("REDACTED"), "{shown}");
        }
        assert!(format!("{in_query:?}").contains("sslmode=require"));
    }
}
