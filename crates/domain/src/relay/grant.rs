//! A link's provider grant as a relayed call uses it: when its access token is dead, and
//! what storing the tokens a refresh obtained writes.

use crate::SealedTokens;
use crate::plan::{Write, WritePlan};
use crate::{AuditContext, AuditEventType, LinkedAccountId, ProviderKey, SealedToken, UserId};
use time::{Duration, OffsetDateTime};

/// An access token this close to its expiry is refreshed before the call: the call itself
/// takes time, and clocks differ.
pub const EXPIRY_MARGIN: Duration = Duration::seconds(30);

/// Whether an access token that expires at `expires_at` (`None`: the provider did not say)
/// must be refreshed before a call at `now`. An unknown expiry is used until the provider
/// answers 401.
pub fn needs_refresh(expires_at: Option<OffsetDateTime>, now: OffsetDateTime) -> bool {
    expires_at.is_some_and(|at| at - EXPIRY_MARGIN <= now)
}

/// The tokens a relay refresh obtained, for the link whose access token was `seen` when the
/// refresh began. A refresh answer that names no scope keeps the stored scopes; one without
/// a refresh token keeps the stored refresh token (most providers rotate none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantRenewal {
    pub link: LinkedAccountId,
    pub seen: SealedToken,
    pub tokens: SealedTokens,
    pub at: OffsetDateTime,
}

/// A relay refresh to store, with whose link it is for the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayRefresh {
    pub user: UserId,
    pub provider: ProviderKey,
    pub renewal: GrantRenewal,
    /// Records `provider.token_refreshed`.
    pub audit: AuditContext,
}

impl RelayRefresh {
    /// The new tokens (only over the token the refresh began from), then
    /// `provider.token_refreshed`.
    pub fn plan(&self) -> WritePlan {
        let refreshed = AuditEventType::ProviderTokenRefreshed;
        let write = Write::RenewGrant(self.renewal.clone());
        self.audit
            .plan(write, refreshed, self.user, Some(self.provider))
    }
}

/// A refresh the provider refused: the grant is dead, so the link's tokens go (the link
/// stays) and its lease ends, and the user must authorize again. Only while the link still
/// holds the access token the refresh began from: new tokens stored since stay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedGrant {
    pub user: UserId,
    pub provider: ProviderKey,
    pub link: LinkedAccountId,
    pub seen: SealedToken,
    /// Records `provider.reauthorization_required`.
    pub audit: AuditContext,
}

impl RefusedGrant {
    /// The tokens go with the lease, then `provider.reauthorization_required`.
    pub fn plan(&self) -> WritePlan {
        let required = AuditEventType::ProviderReauthorizationRequired;
        let write = Write::ForgetRefusedGrant {
            link: self.link,
            seen: self.seen.clone(),
            at: self.audit.at,
        };
        self.audit
            .plan(write, required, self.user, Some(self.provider))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_refreshed_only_when_it_is_known_to_be_dead_or_nearly() {
        let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        assert!(!needs_refresh(None, now));
        assert!(!needs_refresh(Some(now + Duration::minutes(5)), now));
        assert!(needs_refresh(Some(now + Duration::seconds(30)), now));
        assert!(needs_refresh(Some(now - Duration::hours(1)), now));
    }
}
