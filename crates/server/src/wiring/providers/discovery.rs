//! The first discovery of every enabled provider of `kind = "oidc"`: all at once at
//! start-up, the round bounded by the provider timeout. One that fails does not stop the
//! service: it is listed, answers 503 to sign-ins, and is retried in the background until
//! its discovery succeeds (docs/providers.md, docs/decisions.md).

use social_login_ports::IdentityProvider;
use social_login_provider_oidc::generic::{DiscoveryRetry, GenericOidc};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinSet;

/// The retries of the providers whose first discovery failed.
#[derive(Default)]
pub struct Undiscovered(Vec<DiscoveryRetry>);

impl Undiscovered {
    /// Starts one retry task per provider; each ends once its provider is discovered or
    /// the service holding it is dropped.
    pub fn spawn(self) {
        for retry in self.0 {
            tokio::spawn(retry.run());
        }
    }
}

/// A moment beyond the provider timeout for the round as a whole: each attempt is one
/// request the HTTP client already bounds.
const ROUND_GRACE: Duration = Duration::from_secs(1);

/// Tries each provider's discovery once, concurrently; the ones still undiscovered after
/// the round (failed, or slower than the timeout) get a retry.
pub(super) async fn first_attempts(
    pending: Vec<Arc<GenericOidc>>,
    timeout: Duration,
) -> Undiscovered {
    // One task per provider table: validation bounds the tables.
    let mut attempts = JoinSet::new();
    for provider in &pending {
        let provider = provider.clone();
        attempts.spawn(async move {
            let outcome = provider.discover().await;
            (provider.key(), outcome.map_err(|error| error.to_string()))
        });
    }
    let mut problems = HashMap::new();
    let round = async {
        while let Some(joined) = attempts.join_next().await {
            if let Ok((key, Err(problem))) = joined {
                problems.insert(key, problem);
            }
        }
    };
    // Those still running past the deadline are dropped with the set, and retried.
    let _ = tokio::time::timeout(timeout + ROUND_GRACE, round).await;
    let mut retries = Vec::new();
    for provider in pending.iter().filter(|provider| provider.ready().is_err()) {
        let key = provider.key();
        let problem = problems.remove(&key);
        let problem = problem
            .as_deref()
            .unwrap_or("no answer within the provider timeout");
        tracing::warn!(
            provider = %key,
            problem,
            "discovery failed: the provider answers 503 to sign-ins until a retry succeeds"
        );
        retries.push(provider.retry());
    }
    Undiscovered(retries)
}
