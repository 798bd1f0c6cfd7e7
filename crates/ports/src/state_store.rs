//! The state store port: which state values have been spent.

use async_trait::async_trait;
use social_login_domain::{Spend, StateId};
use time::OffsetDateTime;

/// The store could not be reached or answered garbage. Clients see 503.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state store unavailable: {0}")]
pub struct StateStoreError(pub String);

/// Remembers the ids of spent state values until they expire.
///
/// Issuing a state value writes nothing (the value is sealed, see [`crate::StateSealer`]), so
/// no number of authorize requests can fill this store. `spend` must be one atomic
/// insert-if-absent (a map insert under a lock, Redis `SET NX PX`), never a read followed by
/// a write: of any number of concurrent spends of one id, across every instance, exactly one
/// gets [`Spend::First`]. That is what makes a state value single-use (spec §3 rule 1).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StateStore: Send + Sync {
    /// Records `id` as spent and keeps it at least until `expires_at`, after which the
    /// domain refuses the value by its expiry anyway.
    async fn spend(
        &self,
        id: StateId,
        expires_at: OffsetDateTime,
    ) -> Result<Spend, StateStoreError>;

    /// Cheap reachability check for `/readyz`.
    async fn ping(&self) -> Result<(), StateStoreError>;
}
