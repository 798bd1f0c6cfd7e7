//! What a relayed call needs from the store: the caller's link of a provider with its
//! sealed tokens, and a refresh of those tokens settled once across instances by the
//! database (a lease on the link's row), not by a lock in one process.

use crate::RepoResult;
use async_trait::async_trait;
use social_login_domain::SealedTokens;
use social_login_domain::relay::{RefusedGrant, RelayRefresh};
use social_login_domain::{LinkedAccountId, ProviderKey, SealedToken, UserId};
use time::OffsetDateTime;

/// A user's link of one provider as a relayed call uses it. `Debug` shows no token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkGrant {
    pub link: LinkedAccountId,
    pub tokens: SealedTokens,
    /// Until when a caller is refreshing these tokens (`None`: nobody is).
    pub refresh_lease_until: Option<OffsetDateTime>,
    /// Its provider reported the account disabled: nothing is called for it.
    pub disabled: bool,
    /// An operator locked the user: nothing is called for them.
    pub user_locked: bool,
}

/// What [`ProviderGrants::grant_of`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantLookup {
    /// There is no such user (deleted since the caller's token was issued, or never).
    NoUser,
    /// The user has no link of the provider.
    NoLink,
    Grant(LinkGrant),
}

/// A claim on refreshing `link`'s tokens: granted when the link still holds the access token
/// `seen` and no other caller's lease is live at `now`; it lasts until `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshClaim {
    pub link: LinkedAccountId,
    pub seen: SealedToken,
    pub now: OffsetDateTime,
    pub until: OffsetDateTime,
}

/// A lease given back after a refresh that failed (the provider did not answer): the tokens
/// stay for a later call to retry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRelease {
    pub link: LinkedAccountId,
    /// The access token the refresh began from: nothing changes once the link holds another.
    pub seen: SealedToken,
    /// The `until` of the caller's claim: a lease another caller took once it ran out is
    /// theirs, and stays.
    pub until: OffsetDateTime,
}

/// The store side of relayed calls.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ProviderGrants: Send + Sync {
    /// `user`'s link of `provider` with its sealed tokens and whether the user is locked, in
    /// one read that also tells a missing user from a missing link.
    async fn grant_of(&self, user: UserId, provider: ProviderKey) -> RepoResult<GrantLookup>;

    /// Takes the link's refresh lease (one conditional update): true when this caller is
    /// now the one that refreshes; false when the tokens changed or another caller holds a
    /// live lease, on this instance or any other.
    async fn claim_refresh(&self, claim: RefreshClaim) -> RepoResult<bool>;

    /// Stores a refresh's tokens (the plan writes them only over the token the refresh
    /// began from, which ends the lease) with `provider.token_refreshed`, in one
    /// transaction. False when the link changed or went meanwhile: nothing is written.
    async fn store_refresh(&self, refresh: RelayRefresh) -> RepoResult<bool>;

    /// Ends this caller's lease without new tokens, so the next call need not wait for it to
    /// lapse.
    async fn release_refresh(&self, release: LeaseRelease) -> RepoResult<()>;

    /// Applies a refused refresh's plan (the tokens go with the lease, and
    /// `provider.reauthorization_required`), in one transaction. False when the link holds
    /// other tokens, or went, meanwhile: nothing is written.
    async fn store_refusal(&self, refusal: RefusedGrant) -> RepoResult<bool>;
}
