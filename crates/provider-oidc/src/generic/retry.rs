//! Discovery retried in the background after it failed at start-up: 1 s, then twice as long
//! each time up to a minute, until it succeeds (docs/decisions.md). Each attempt is bounded
//! by the HTTP client's timeout; the task holds the provider weakly and ends once the
//! provider is gone (the service stopped).

use super::Discovery;
use social_login_domain::ProviderKey;
use social_login_provider_core::Engine;
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

/// The waits between attempts: 1 s doubling to at most 60 s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    next: Duration,
}

impl Backoff {
    pub const FIRST: Duration = Duration::from_secs(1);
    pub const MAX: Duration = Duration::from_secs(60);

    pub fn new() -> Self {
        Self { next: Self::FIRST }
    }

    /// The wait before the next attempt; the one after it is twice as long, capped.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (wait * 2).min(Self::MAX);
        wait
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Self::new()
    }
}

/// Retries one provider's discovery until it succeeds or the provider is dropped.
pub struct DiscoveryRetry {
    key: ProviderKey,
    slot: Weak<OnceLock<Engine>>,
    discovery: Arc<Discovery>,
    backoff: Backoff,
}

impl DiscoveryRetry {
    pub(super) fn new(
        key: ProviderKey,
        slot: Weak<OnceLock<Engine>>,
        discovery: Arc<Discovery>,
    ) -> Self {
        Self {
            key,
            slot,
            discovery,
            backoff: Backoff::new(),
        }
    }

    /// Waits, tries, and so on until an attempt succeeds; then the provider serves.
    pub async fn run(mut self) {
        loop {
            tokio::time::sleep(self.backoff.next_wait()).await;
            let Some(slot) = self.slot.upgrade() else {
                return;
            };
            if slot.get().is_some() {
                return;
            }
            match self.discovery.attempt().await {
                Ok(engine) => {
                    let _ = slot.set(engine);
                    tracing::info!(provider = %self.key, "discovery succeeded: the provider serves");
                    return;
                }
                Err(error) => {
                    tracing::warn!(provider = %self.key, %error, "discovery failed; retrying")
                }
            }
        }
    }
}
