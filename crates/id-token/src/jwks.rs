//! A provider's JSON Web Key Set, fetched with the shared client and cached.
//!
//! Policy (docs/architecture.md, docs/decisions.md): the set is kept for [`KEY_SET_TTL`];
//! a token whose `kid` is not in it triggers a refetch, so a key rotation is picked up at
//! once: always for a token the provider's token endpoint sent (one refetch for that token),
//! at most once per [`PRESENTED_REFETCH_INTERVAL`] for a token a client presented, so a flood
//! of made-up `kid`s cannot make us hammer the provider. When a refresh fails, the keys stay in use
//! for [`KEY_SET_GRACE`] past their hour, and the next attempt waits [`RETRY_INTERVAL`]:
//! a JWKS outage neither stops sign-ins at once nor sends one fetch per login.
//!
//! Single flight: the state sits behind a lock held only for lookups, never across the
//! network. One caller fetches while holding `fetching`; the others that need the set wait
//! for its outcome (or, holding a key still within the grace, use it at once), so a
//! hanging endpoint costs each login at most one timeout, and a login whose key is cached
//! never waits for anybody's fetch. Times come from the caller's clock, so tests move them.

mod cached;
pub mod key;
mod registry;

pub use crate::jwks::cached::KeyMiss;
use crate::jwks::cached::{Cached, Lookup};
use crate::jwks::key::{JwkSetDocument, PublicKey};
use jsonwebtoken::Algorithm;
use social_login_ports::ProviderError;
use social_login_provider_core::{CallKind, ProviderHttp, fetch_json};
use std::sync::{Mutex, MutexGuard, PoisonError};
use time::{Duration, OffsetDateTime};
use url::Url;

/// How long a fetched key set is trusted without asking again (one hour: docs/providers.md).
pub const KEY_SET_TTL: Duration = Duration::hours(1);

/// How long past [`KEY_SET_TTL`] the keys stay in use while the provider's key endpoint
/// fails: a day rides out a long outage, and bounds how long a key the provider withdrew
/// during one can still verify a token.
pub const KEY_SET_GRACE: Duration = Duration::hours(24);

/// The least time between two fetches caused by an unknown `kid` in a presented token.
pub const PRESENTED_REFETCH_INTERVAL: Duration = Duration::seconds(10);

/// Where a token came from, which decides whether its unknown `kid` may refetch the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenOrigin {
    /// The provider's token endpoint answered it to our code exchange.
    TokenEndpoint,
    /// A client posted it (native sign-in), or a signal's sender did.
    Presented,
}

/// The least time between a failed fetch and the next attempt, whatever needs the keys.
pub const RETRY_INTERVAL: Duration = Duration::seconds(30);

/// One provider's key set. Shared by every adapter instance with the same JWKS URL through
/// [`KeySetCache::shared`].
#[derive(derive_more::Debug)]
pub struct KeySetCache {
    #[debug("{}", url.as_str())]
    url: Url,
    #[debug(skip)]
    http: ProviderHttp,
    /// Held only to read or record, never across an await.
    #[debug(skip)]
    state: Mutex<Cached>,
    /// Held by the one caller fetching the set.
    #[debug(skip)]
    fetching: tokio::sync::Mutex<()>,
}

impl KeySetCache {
    /// A cache of its own, empty until the first token needs a key. Adapters use
    /// [`KeySetCache::shared`] instead.
    pub fn new(url: Url, http: ProviderHttp) -> Self {
        Self {
            url,
            http,
            state: Mutex::new(Cached::default()),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    /// The process-wide cache of `url`, created on first use. Every adapter instance of a
    /// provider gets the same one, so the key set is fetched once per process however many
    /// instances the composition root builds; it is dropped with the last of them.
    pub fn shared(url: &Url, http: &ProviderHttp) -> std::sync::Arc<Self> {
        registry::shared(url, http)
    }

    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The key to check a token from `origin` signed with `algorithm` under `kid`, at time
    /// `now`; else why there is none: the set could not be fetched (a failure of ours, not the
    /// token's), or it holds none that fits (a `ProviderError` through `From`).
    pub async fn key_or_miss(
        &self,
        kid: Option<&str>,
        algorithm: Algorithm,
        now: OffsetDateTime,
        origin: TokenOrigin,
    ) -> Result<PublicKey, KeyMiss> {
        let key = self.find(kid, now, origin).await?;
        if key.accepts(algorithm) {
            return Ok(key);
        }
        match self.state().namesake(kid, algorithm, now) {
            Some(other) => Ok(other),
            None => Err(KeyMiss::NotInSet(ProviderError::UserInfo(
                "id_token algorithm does not match its key".into(),
            ))),
        }
    }

    async fn find(
        &self,
        kid: Option<&str>,
        now: OffsetDateTime,
        origin: TokenOrigin,
    ) -> Result<PublicKey, KeyMiss> {
        let lookup = self.state().lookup(kid, now, origin);
        let (meanwhile, seen) = match lookup {
            Lookup::Found(key) => return Ok(key),
            Lookup::Refused(miss) => return Err(miss),
            Lookup::Refresh {
                meanwhile,
                attempts,
            } => (meanwhile, attempts),
        };
        let _fetching = match (self.fetching.try_lock(), meanwhile) {
            (Ok(guard), _) => guard,
            // Someone else is fetching: a key still within the grace needs no wait.
            (Err(_), Some(key)) => return Ok(key),
            (Err(_), None) => self.fetching.lock().await,
        };
        // The fetch we waited for may have settled it; if not (or if its caller gave up
        // and dropped it), this caller fetches.
        let pending = self.state().attempts() == seen;
        if pending {
            self.state().begin(now);
            let outcome = self.fetch().await;
            if let Err(error) = &outcome {
                tracing::warn!(jwks = %self.url, %error, "key set refresh failed");
            }
            let mut state = self.state();
            state.record(outcome, now);
            tracing::debug!(jwks = %self.url, keys = state.key_count(), "key set attempt recorded");
        }
        self.state().settle(kid, now)
    }

    async fn fetch(&self) -> Result<Vec<PublicKey>, ProviderError> {
        let document: JwkSetDocument = fetch_json(
            "JWKS endpoint",
            &self.http,
            self.http.get(self.url.clone()),
            CallKind::Jwks,
        )
        .await?;
        let keys = document.signature_keys();
        if keys.is_empty() {
            // Kept as a failure: an empty set would refuse every token, stale keys would not.
            return Err(ProviderError::UserInfo(
                "JWKS endpoint answered no usable signature key".into(),
            ));
        }
        Ok(keys)
    }

    fn state(&self) -> MutexGuard<'_, Cached> {
        // The state is consistent after every statement; a panic elsewhere cannot break it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
