//! A provider's JSON Web Key Set, fetched with the shared client and cached.
//!
//! Policy (docs/architecture.md): the set is kept for [`KEY_SET_TTL`]; a token whose `kid`
//! is not in it triggers a refetch, at most once per [`REFETCH_INTERVAL`], so a key
//! rotation is picked up at once while a flood of made-up `kid`s cannot make us hammer the
//! provider. Times come from the caller's clock, so tests can move them.

pub mod key;
mod registry;

use crate::jwks::key::{JwkSetDocument, PublicKey};
use jsonwebtoken::{Algorithm, DecodingKey};
use social_login_ports::ProviderError;
use social_login_provider_core::fetch_json;
use std::fmt;
use time::{Duration, OffsetDateTime};
use tokio::sync::Mutex;
use url::Url;

/// How long a fetched key set is trusted without asking again.
pub const KEY_SET_TTL: Duration = Duration::hours(1);

/// The least time between two fetches caused by an unknown `kid`.
pub const REFETCH_INTERVAL: Duration = Duration::minutes(1);

/// One provider's key set. Shared by every adapter instance with the same JWKS URL through
/// [`KeySetCache::shared`].
pub struct KeySetCache {
    url: Url,
    http: reqwest::Client,
    // An async mutex held across the fetch: concurrent sign-ins wait for one fetch instead
    // of each sending their own.
    state: Mutex<Cached>,
}

#[derive(Default)]
struct Cached {
    keys: Vec<PublicKey>,
    /// When the keys were last fetched successfully.
    fetched_at: Option<OffsetDateTime>,
    /// When a fetch was last attempted, successful or not: the unknown-`kid` limit.
    attempted_at: Option<OffsetDateTime>,
}

impl Cached {
    fn is_fresh(&self, now: OffsetDateTime) -> bool {
        self.fetched_at.is_some_and(|at| now - at < KEY_SET_TTL)
    }

    fn may_refetch(&self, now: OffsetDateTime) -> bool {
        self.attempted_at
            .is_none_or(|at| now - at >= REFETCH_INTERVAL)
    }

    /// The key named `kid`; a token without `kid` may use the only key of a one-key set.
    fn find(&self, kid: Option<&str>) -> Option<&PublicKey> {
        match kid {
            Some(kid) => self.keys.iter().find(|key| key.kid.as_deref() == Some(kid)),
            None if self.keys.len() == 1 => self.keys.first(),
            None => None,
        }
    }
}

impl fmt::Debug for KeySetCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySetCache")
            .field("url", &self.url.as_str())
            .finish_non_exhaustive()
    }
}

impl KeySetCache {
    /// A cache of its own, empty until the first token needs a key. Adapters use
    /// [`KeySetCache::shared`] instead.
    pub fn new(url: Url, http: reqwest::Client) -> Self {
        Self {
            url,
            http,
            state: Mutex::new(Cached::default()),
        }
    }

    /// The process-wide cache of `url`, created on first use. Every adapter instance of a
    /// provider gets the same one, so the key set is fetched once per process however many
    /// instances the composition root builds; it is dropped with the last of them.
    pub fn shared(url: &Url, http: &reqwest::Client) -> std::sync::Arc<Self> {
        registry::shared(url, http)
    }

    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The key to check a token signed with `algorithm` under `kid`, at time `now`.
    /// Failures are `ProviderError::UserInfo` naming the step.
    pub async fn key_for(
        &self,
        kid: Option<&str>,
        algorithm: Algorithm,
        now: OffsetDateTime,
    ) -> Result<DecodingKey, ProviderError> {
        let mut cached = self.state.lock().await;
        if !cached.is_fresh(now) {
            self.refresh(&mut cached, now).await?;
        } else if cached.find(kid).is_none() && cached.may_refetch(now) {
            // A rotation: the provider signs with a key published after our fetch.
            tracing::info!(jwks = %self.url, "unknown id_token key id; refetching the key set");
            self.refresh(&mut cached, now).await?;
        }
        let key = cached.find(kid).ok_or_else(|| {
            ProviderError::UserInfo("id_token key id is not in the provider's key set".into())
        })?;
        if !key.accepts(algorithm) {
            return Err(ProviderError::UserInfo(
                "id_token algorithm does not match its key".into(),
            ));
        }
        Ok(key.key.clone())
    }

    async fn refresh(&self, cached: &mut Cached, now: OffsetDateTime) -> Result<(), ProviderError> {
        cached.attempted_at = Some(now);
        let document: JwkSetDocument =
            fetch_json("JWKS endpoint", self.http.get(self.url.clone())).await?;
        cached.keys = document.signature_keys();
        cached.fetched_at = Some(now);
        tracing::debug!(jwks = %self.url, keys = cached.keys.len(), "key set fetched");
        Ok(())
    }
}
