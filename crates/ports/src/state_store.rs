//! The state store port: where issued state values wait for their callback.

use async_trait::async_trait;
use social_login_domain::{OAuthState, StateToken};

/// The store could not be reached or answered garbage. Clients see 503.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state store unavailable: {0}")]
pub struct StateStoreError(pub String);

/// Keeps state values between authorize and callback.
///
/// `take` must be one atomic operation (a map `remove`, Redis `GETDEL`), never a get
/// followed by a delete: of any number of concurrent takes of one value, exactly one may
/// get it. That is what makes a state value single-use (spec §3 rule 1).
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StateStore: Send + Sync {
    /// Keeps `state` until it is taken or `state.expires_at` passes.
    async fn put(&self, state: OAuthState) -> Result<(), StateStoreError>;

    /// Removes and returns the value, if present. An expired value may be returned or not;
    /// the domain refuses it either way.
    async fn take(&self, token: &StateToken) -> Result<Option<OAuthState>, StateStoreError>;

    /// Cheap reachability check for `/readyz`.
    async fn ping(&self) -> Result<(), StateStoreError>;
}
