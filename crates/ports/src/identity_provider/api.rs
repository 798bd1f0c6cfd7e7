//! A call to a provider's API made for a user (the relay), and the refresh of the tokens it
//! is made with.

use super::ProviderError;
use async_trait::async_trait;
use bytes::Bytes;
use social_login_domain::SecretText;
use social_login_domain::relay::RelayMethod;
use std::time::Duration;

/// One relayed call, its URL already checked to lie under one of the provider's API bases.
/// `Debug` shows neither the token nor the body.
#[derive(derive_more::Debug)]
pub struct ApiCall {
    pub method: RelayMethod,
    #[debug(skip)]
    pub url: String,
    /// The caller's headers that go on (see `domain::relay::forwarded_to_provider`).
    #[debug(skip)]
    pub headers: Vec<(String, String)>,
    #[debug("{} bytes", body.len())]
    pub body: Bytes,
    #[debug(skip)]
    pub token: SecretText,
    #[debug(skip)]
    pub timeout: Duration,
}

/// The provider's answer: its status and headers (all of them; the use case chooses which
/// pass back), and its body still to be read.
#[derive(derive_more::Debug)]
pub struct ApiAnswer {
    pub status: u16,
    #[debug(skip)]
    pub headers: Vec<(String, String)>,
    #[debug(skip)]
    pub body: Box<dyn ApiBody>,
}

/// An answer's body, read a chunk at a time so that no answer is held whole.
#[async_trait]
pub trait ApiBody: Send {
    /// The next chunk; `None` at the end.
    async fn chunk(&mut self) -> Result<Option<Bytes>, ProviderError>;

    /// The length the provider announced, if it did.
    fn announced_length(&self) -> Option<u64>;
}

/// Why a refresh gave no tokens.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefreshFailure {
    /// The provider refused the refresh token (revoked, expired, `invalid_grant`): only the
    /// user can grant access again.
    #[error("refresh refused: {0}")]
    Refused(String),
    /// The provider could not be asked (unreachable, timed out, garbled answer).
    #[error("refresh failed: {0}")]
    Failed(String),
}
