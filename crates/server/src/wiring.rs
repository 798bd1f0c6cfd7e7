//! The composition root: turns `Settings` into adapters and the `AuthService`.

use crate::http::{JWKS_PATH, WellKnown};
use crate::server::StartupError;
use crate::settings::{IdTokenNonce, Settings, StateStoreBackend};
use social_login_app::{AuthPolicy, AuthService, Ports, ProviderRegistry, WebhookDelivery};
use social_login_domain::{EventSet, ProviderKey, SecretText};
use social_login_persistence::Database;
use social_login_ports::{Clock, IdentityProvider, Randomness, SystemClock};
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::{ProviderSettings, build_http_client};
use social_login_provider_oauth2::{
    DiscordProvider, FacebookProvider, GithubProvider, TwitterProvider,
};
use social_login_provider_oidc::{GoogleProvider, LinkedinProvider, MicrosoftProvider};
use social_login_security::{
    AeadStateSealer, AesGcmTokenCipher, Argon2PasswordHasher, HashLimits, JwtSessionTokens,
    OsRandomness, state_sealer::EPOCH_BYTES,
};
use social_login_state_store::{MemoryStateStore, RedisStateStore, RedisStateStoreConfig};
use social_login_webhooks::HttpWebhookSender;
use std::sync::Arc;
use std::time::Duration;

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
    let ports = Ports {
        users: repository.clone(),
        refresh_tokens: repository.clone(),
        state_sealer: Arc::new(state_sealer(settings, &secret, &previous)),
        states: state_store(settings, clock.clone())?,
        providers: providers(settings)?,
        cipher: Arc::new(AesGcmTokenCipher::new(&secret, &previous)),
        hasher: Arc::new(password_hasher(settings)),
        sessions: Arc::new(sessions),
        clock,
        random: Arc::new(OsRandomness),
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
    Ok(Wired {
        service: AuthService::new(ports, policy),
        repository,
        webhooks,
        well_known,
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
    match settings.oauth_state_store.backend {
        StateStoreBackend::Memory => {
            let mut epoch = [0; EPOCH_BYTES];
            OsRandomness.fill(&mut epoch);
            sealer.bound_to_epoch(epoch)
        }
        StateStoreBackend::Redis => sealer,
    }
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

/// Apple signs a client secret per exchange with the team's key (spec 4.7.1).
fn apple(
    provider: ProviderSettings,
    settings: &Settings,
    http: reqwest::Client,
) -> Result<AppleProvider, StartupError> {
    AppleProvider::new(
        provider,
        settings.apple_team_id.clone().unwrap_or_default(),
        settings.apple_key_id.clone().unwrap_or_default(),
        settings.apple_private_key(),
        http,
    )
    .map_err(|error| StartupError::Provider(format!("oauth_providers.apple: {error}")))
}

/// One adapter per enabled provider, all sharing one pooled HTTP client.
fn providers(settings: &Settings) -> Result<ProviderRegistry, StartupError> {
    let http = build_http_client(settings.http.provider_timeout())
        .map_err(|error| StartupError::Provider(error.to_string()))?;
    let mut registry = ProviderRegistry::new();
    for (key, config) in settings.enabled_providers() {
        let failed = |error: social_login_provider_core::ProviderConfigError| {
            StartupError::Provider(format!("oauth_providers.{key}: {error}"))
        };
        let provider = config.adapter_settings();
        let adapter: Arc<dyn IdentityProvider> = match key {
            ProviderKey::GITHUB => {
                Arc::new(GithubProvider::new(provider, http.clone()).map_err(failed)?)
            }
            ProviderKey::GOOGLE => Arc::new(
                GoogleProvider::new(provider, http.clone())
                    .map_err(failed)?
                    .with_client_ids(&config.client_ids),
            ),
            ProviderKey::DISCORD => {
                Arc::new(DiscordProvider::new(provider, http.clone()).map_err(failed)?)
            }
            ProviderKey::FACEBOOK => {
                Arc::new(FacebookProvider::new(provider, http.clone()).map_err(failed)?)
            }
            ProviderKey::TWITTER => {
                Arc::new(TwitterProvider::new(provider, http.clone()).map_err(failed)?)
            }
            ProviderKey::MICROSOFT => Arc::new(
                MicrosoftProvider::new(provider, http.clone())
                    .map_err(failed)?
                    .with_client_ids(&config.client_ids),
            ),
            ProviderKey::LINKEDIN => {
                Arc::new(LinkedinProvider::new(provider, http.clone()).map_err(failed)?)
            }
            ProviderKey::APPLE => Arc::new(
                apple(provider, settings, http.clone())?.with_client_ids(&config.client_ids),
            ),
            other => {
                return Err(StartupError::Provider(format!(
                    "oauth_providers.{other}: no adapter in this build"
                )));
            }
        };
        registry = registry.with(adapter);
        if config.id_token_nonce == Some(IdTokenNonce::Optional) {
            registry = registry.with_optional_nonce(key);
        }
    }
    Ok(registry)
}
