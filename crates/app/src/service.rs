//! The service object: the ports it runs on and the policy it applies.

use crate::{ProviderRegistry, SignalVerifiers};
use social_login_domain::EventSet;
use social_login_ports::{
    Clock, PasswordHasher, ProviderGrants, Randomness, RefreshTokenRepository, SessionTokens,
    SignalRepository, StateSealer, StateStore, TokenCipher, UserRepository,
};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// Every adapter the use cases need.
#[derive(Clone)]
pub struct Ports {
    pub users: Arc<dyn UserRepository>,
    pub refresh_tokens: Arc<dyn RefreshTokenRepository>,
    /// The links' provider grants, for relayed calls.
    pub grants: Arc<dyn ProviderGrants>,
    /// Provider signals' actions and receipts.
    pub signals: Arc<dyn SignalRepository>,
    /// Seals the state into the value the browser carries: authorize writes nothing.
    pub state_sealer: Arc<dyn StateSealer>,
    /// Remembers spent state values until they expire.
    pub states: Arc<dyn StateStore>,
    pub providers: ProviderRegistry,
    /// One verifier per signal endpoint of an enabled provider.
    pub signal_verifiers: SignalVerifiers,
    pub cipher: Arc<dyn TokenCipher>,
    pub hasher: Arc<dyn PasswordHasher>,
    pub sessions: Arc<dyn SessionTokens>,
    pub clock: Arc<dyn Clock>,
    /// Where unguessable values come from: the OS generator, or a seeded one in tests.
    pub random: Arc<dyn Randomness>,
}

/// The choices of the configuration that the rules depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthPolicy {
    /// docs/api.md#linking-rules: link a provider login to the user with the same verified email.
    pub auto_link_by_email: bool,
    /// Time to live of a state value (docs/configuration.md, default 10 minutes).
    pub state_ttl: Duration,
    /// Absolute end of a session: no refresh works past it, however often rotated.
    pub refresh_family_max: Duration,
    /// How recent the session's login must be to delete the account or link a provider
    /// account (`[tokens] reauthentication_seconds`, default 5 minutes).
    pub reauthentication: Duration,
    /// The audit event types queued for the webhooks (none when no webhook is set).
    pub webhook_events: EventSet,
    /// `[signup] password`: `false` refuses `POST /auth/register` (403 `SignupNotAllowed`);
    /// password logins of existing users still work.
    pub password_signup: bool,
    /// Failed password logins of one account in 15 minutes past which each attempt is
    /// slowed (`[rate_limit] password_attempts_per_account`).
    pub password_attempts_per_account: u64,
    /// IPv6 clients are counted by their network of this many bits (`[rate_limit]
    /// ipv6_prefix`), as the rate limit counts them.
    pub ipv6_prefix: u8,
    /// `[relay]`: calls to providers' APIs made for users.
    pub relay: RelayPolicy,
    /// `[audit] retention_days`: events older than this are pruned.
    pub audit_retention: Duration,
    /// With a state store that forgets on restart (memory): when this process started. The
    /// id_tokens an earlier process saw used are forgotten, so a token issued before is
    /// refused rather than accepted a second time.
    pub id_tokens_issued_since: Option<OffsetDateTime>,
}

/// `[relay]` (docs/configuration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayPolicy {
    pub enabled: bool,
    /// Each call to the provider (and each refresh) must finish within it.
    pub timeout: std::time::Duration,
    /// Longest answer passed back; a longer one is cut off (502 when announced).
    pub max_response_bytes: u64,
}

impl Default for RelayPolicy {
    fn default() -> Self {
        Self {
            enabled: false,
            timeout: std::time::Duration::from_secs(15),
            max_response_bytes: 10 * 1024 * 1024,
        }
    }
}

/// Default absolute session lifetime: 90 days (docs/configuration.md `refresh_family_max_seconds`).
pub const DEFAULT_REFRESH_FAMILY_MAX: Duration = Duration::days(90);

impl Default for AuthPolicy {
    fn default() -> Self {
        Self {
            auto_link_by_email: false,
            state_ttl: social_login_domain::state::DEFAULT_STATE_TTL,
            refresh_family_max: DEFAULT_REFRESH_FAMILY_MAX,
            reauthentication:
                social_login_domain::reauthentication::DEFAULT_REAUTHENTICATION_WINDOW,
            webhook_events: EventSet::NONE,
            password_signup: true,
            password_attempts_per_account: social_login_domain::throttle::DEFAULT_ACCOUNT_FAILURES,
            ipv6_prefix: 64,
            relay: RelayPolicy::default(),
            audit_retention: crate::usecases::tokens::AUDIT_RETENTION,
            id_tokens_issued_since: None,
        }
    }
}

/// All use cases. Cheap to clone; share one per process.
#[derive(Clone)]
pub struct AuthService {
    pub(crate) ports: Ports,
    pub(crate) policy: AuthPolicy,
}

impl AuthService {
    pub fn new(ports: Ports, policy: AuthPolicy) -> Self {
        Self { ports, policy }
    }

    pub fn policy(&self) -> AuthPolicy {
        self.policy
    }
}

impl AuthService {
    /// Readiness: the repository and the state store both answer.
    pub async fn ready(&self) -> Result<(), crate::AppError> {
        self.ports.users.ping().await?;
        self.ports.states.ping().await?;
        Ok(())
    }
}
