//! The composition root: turns `Settings` into adapters and the `AuthService`.

pub mod providers;
mod signals;

use crate::http::admin::Operator;
use crate::http::{JWKS_PATH, WellKnown};
use crate::settings::{Settings, StateStoreBackend};
use crate::startup_error::StartupError;
use social_login_app::{AdminService, AuthPolicy, AuthService, Ports, WebhookDelivery};
use social_login_domain::{EventSet, SecretText};
use social_login_persistence::Database;
use social_login_ports::{Clock, SystemClock};
use social_login_security::{
    AeadStateSealer, AesGcmTokenCipher, Argon2PasswordHasher, HashLimits, JwtSessionTokens,
    ThreadRandomness, os_random_fill, state_sealer::EPOCH_BYTES,
};
use social_login_state_store::{MemoryStateStore, RedisStateStore, RedisStateStoreConfig};
use social_login_webhooks::HttpWebhookSender;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// Longest a request waits on Redis before it answers 503: Redis answers in well under a
/// millisecond when it is healthy.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// The built service, the repository behind it (kept for migrations) and the public keys
/// of its access tokens.
pub struct Wired {
    pub service: AuthService,
    pub repository: Arc<dyn Database>,
    /// The delivery of audit events, when `[webhooks]` names a receiver.
    pub webhooks: Option<WebhookDelivery>,
    pub well_known: WellKnown,
    /// The providers of `kind = "oidc"` whose discovery failed at start-up: their retries,
    /// for whoever serves the service to start.
    pub undiscovered: providers::Undiscovered,
    /// The operator API, when `[admin] api_keys` lists a key.
    pub operator: Option<Operator>,
}

/// Connects to the database and builds every adapter. Keys are derived here, once.
pub async fn wire(settings: &Settings) -> Result<Wired, StartupError> {
    let repository = social_login_persistence::open(&settings.database.options())
        .await
        .map_err(|error| StartupError::Database(error.to_string()))?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let (secret, previous) = settings.secret_keys();
    let sessions = session_tokens(settings);
    let well_known = WellKnown::new(sessions.issuer(), &sessions.public_keys())
        .with_jwks_uri(settings.server.public_url_for(JWKS_PATH));
    let providers = providers::registry(settings).await?;
    let ports = Ports {
        users: repository.clone(),
        refresh_tokens: repository.clone(),
        grants: repository.clone(),
        signals: repository.clone(),
        state_sealer: Arc::new(state_sealer(settings, &secret, &previous)),
        states: state_store(settings, clock.clone())?,
        providers: providers.registry,
        signal_verifiers: signals::signal_verifiers(settings, clock.clone())?,
        cipher: Arc::new(AesGcmTokenCipher::new(&secret, &previous)),
        hasher: Arc::new(password_hasher(settings)),
        sessions: Arc::new(sessions),
        clock,
        random: Arc::new(ThreadRandomness),
    };
    let policy = AuthPolicy {
        auto_link_by_email: settings.auto_link_by_email,
        state_ttl: settings.oauth_state_store.ttl(),
        refresh_family_max: settings.tokens.refresh_family_max(),
        reauthentication: settings.tokens.reauthentication(),
        webhook_events: settings
            .webhooks
            .target()
            .map_or(EventSet::NONE, |target| target.events),
        password_signup: settings.signup.password,
        password_attempts_per_account: settings.rate_limit.password_attempts_per_account,
        ipv6_prefix: settings.rate_limit.ipv6_prefix,
        relay: settings.relay.policy(),
        audit_retention: settings.audit.retention(),
        id_tokens_issued_since: id_tokens_issued_since(settings, ports.clock.now()),
    };
    let webhooks = match settings.webhooks.target() {
        Some(target) => {
            let sender = HttpWebhookSender::new(target.url, target.secret)
                .map_err(|error| StartupError::Provider(format!("webhooks: {error}")))?;
            Some(WebhookDelivery::new(
                repository.clone(),
                Arc::new(sender),
                ports.clock.clone(),
                settings.webhooks.limits(),
            ))
        }
        None => None,
    };
    let service = AuthService::new(ports, policy);
    let keys = settings.admin.keys();
    let operator = (!keys.is_empty()).then(|| Operator {
        service: AdminService::new(service.clone(), repository.clone()),
        keys,
    });
    Ok(Wired {
        service,
        operator,
        repository,
        webhooks,
        well_known,
        undiscovered: providers.undiscovered,
    })
}

/// Access tokens signed under `secret_key`, verified under it and the previous keys, with
/// the configured issuer and audience.
pub fn session_tokens(settings: &Settings) -> JwtSessionTokens {
    let (secret, previous) = settings.secret_keys();
    JwtSessionTokens::new(
        &secret,
        &previous,
        settings.tokens.access_ttl(),
        settings.tokens.refresh_ttl(),
    )
    .with_issuer(settings.issuer())
    .with_audience(settings.tokens.audience.clone())
}

/// OWASP costs; as many hashes at once as configured, else one per CPU.
fn password_hasher(settings: &Settings) -> Argon2PasswordHasher {
    let mut limits = HashLimits::for_this_machine();
    if let Some(max) = settings.http.max_concurrent_password_hashes {
        limits.max_concurrent = max;
    }
    Argon2PasswordHasher::new().with_limits(limits)
}

/// With the memory backend the spent ids die with the process, so the state values do
/// too: the sealer takes a random epoch of this process's own (a value minted before a
/// restart is refused after it). Redis keeps the ids, so there values survive a restart.
fn state_sealer(
    settings: &Settings,
    secret: &SecretText,
    previous: &[SecretText],
) -> AeadStateSealer {
    let sealer = AeadStateSealer::new(secret, previous);
    if !settings.oauth_state_store.backend.forgets_on_restart() {
        return sealer;
    }
    let mut epoch = [0; EPOCH_BYTES];
    os_random_fill(&mut epoch);
    sealer.bound_to_epoch(epoch)
}

/// With the memory backend the used id_tokens die with the process: one issued before it
/// started (to the second, as `iat` counts) might have been used already, so it is refused.
/// Redis keeps them across restarts.
fn id_tokens_issued_since(settings: &Settings, now: OffsetDateTime) -> Option<OffsetDateTime> {
    let backend = settings.oauth_state_store.backend;
    backend
        .forgets_on_restart()
        .then(|| now - time::Duration::nanoseconds(now.nanosecond().into()))
}

fn state_store(
    settings: &Settings,
    clock: Arc<dyn Clock>,
) -> Result<Arc<dyn social_login_ports::StateStore>, StartupError> {
    let store = &settings.oauth_state_store;
    match store.backend {
        StateStoreBackend::Memory => Ok(Arc::new(MemoryStateStore::with_capacity(
            clock,
            store.max_entries,
            store.max_attempt_entries,
        ))),
        StateStoreBackend::Redis => {
            let config = RedisStateStoreConfig {
                url: store.url.clone().unwrap_or_default(),
                key_prefix: store.key_prefix.clone(),
                timeout: REDIS_TIMEOUT,
            };
            let redis = RedisStateStore::new(config, clock)
                .map_err(|error| StartupError::StateStore(error.to_string()))?;
            Ok(Arc::new(redis))
        }
    }
}
