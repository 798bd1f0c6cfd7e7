//! `ProviderGrants` in memory: the lease is a map entry behind the store's one lock, as the
//! database's conditional update is one statement.

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::relay::{RefusedGrant, RelayRefresh};
use social_login_domain::{ProviderKey, UserId};
use social_login_ports::{
    GrantLookup, LeaseRelease, LinkGrant, PlanError, ProviderGrants, RefreshClaim, RepoResult,
};

#[async_trait]
impl ProviderGrants for InMemoryRepository {
    async fn grant_of(&self, user: UserId, provider: ProviderKey) -> RepoResult<GrantLookup> {
        let tables = self.lock();
        let Some(owner) = tables.user(user) else {
            return Ok(GrantLookup::NoUser);
        };
        let link = tables
            .links
            .iter()
            .find(|link| link.user_id == user && link.provider == provider);
        Ok(link.map_or(GrantLookup::NoLink, |link| {
            GrantLookup::Grant(LinkGrant {
                link: link.id,
                tokens: link.tokens.clone(),
                refresh_lease_until: tables.refresh_leases.get(&link.id).copied(),
                disabled: tables.disabled.contains(&link.id),
                user_locked: owner.locked,
            })
        }))
    }

    async fn claim_refresh(&self, claim: RefreshClaim) -> RepoResult<bool> {
        let mut tables = self.lock();
        let current = tables
            .links
            .iter()
            .any(|link| link.id == claim.link && link.tokens.access_token == claim.seen);
        let leased = tables
            .refresh_leases
            .get(&claim.link)
            .is_some_and(|until| *until >= claim.now);
        if !current || leased || tables.disabled.contains(&claim.link) {
            return Ok(false);
        }
        tables.refresh_leases.insert(claim.link, claim.until);
        Ok(true)
    }

    async fn store_refresh(&self, refresh: RelayRefresh) -> RepoResult<bool> {
        PlanError::written_unless_gone(self.transact(|tables| tables.apply(refresh.plan())))
    }

    async fn release_refresh(&self, release: LeaseRelease) -> RepoResult<()> {
        let mut tables = self.lock();
        let link = release.link;
        let current = (tables.links.iter())
            .any(|stored| stored.id == link && stored.tokens.access_token == release.seen);
        let own = tables.refresh_leases.get(&link) == Some(&release.until);
        if current && own {
            tables.refresh_leases.remove(&link);
        }
        Ok(())
    }

    async fn store_refusal(&self, refusal: RefusedGrant) -> RepoResult<bool> {
        PlanError::written_unless_gone(self.transact(|tables| tables.apply(refusal.plan())))
    }
}
