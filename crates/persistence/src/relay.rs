//! `ProviderGrants` on sea-orm: a link's tokens for a relayed call, and the refresh lease
//! on its row that lets one caller of any instance refresh them.

use crate::SeaOrmRepository;
use crate::audit::{from_unix_ms, unix_ms};
use crate::entity::linked_account;
use crate::error::repository_error;
use crate::queries;
use async_trait::async_trait;
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ColumnTrait, QueryFilter};
use social_login_domain::relay::RelayRefresh;
use social_login_domain::{LinkedAccountId, ProviderKey, Scopes, SealedToken, UserId};
use social_login_ports::{LinkGrant, ProviderGrants, RefreshClaim, RepoResult, RepositoryError};

#[async_trait]
impl ProviderGrants for SeaOrmRepository {
    async fn grant_of(&self, user: UserId, provider: ProviderKey) -> RepoResult<Option<LinkGrant>> {
        let found = queries::user_link_with_user(user, provider)
            .one(self.connection())
            .await
            .map_err(repository_error)?;
        match found {
            None => Ok(None),
            Some((link, Some(owner))) => Ok(Some(grant_from_row(link, owner.locked))),
            // The foreign key makes this impossible; a broken row is not the caller's fault.
            Some((_, None)) => Err(RepositoryError::Internal("a link without its user".into())),
        }
    }

    async fn claim_refresh(&self, claim: RefreshClaim) -> RepoResult<bool> {
        let lease = linked_account::Column::RefreshLeaseUntilMs;
        let free = Condition::any()
            .add(lease.is_null())
            .add(lease.lt(unix_ms(claim.now)));
        let claimed = queries::update_link(claim.link)
            .col_expr(lease, Expr::value(Some(unix_ms(claim.until))))
            .filter(linked_account::Column::AccessToken.eq(claim.seen.as_str()))
            .filter(linked_account::Column::Disabled.eq(false))
            .filter(free)
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(claimed.rows_affected == 1)
    }

    async fn store_refresh(&self, refresh: RelayRefresh) -> RepoResult<bool> {
        self.apply_unless_gone(refresh.plan()).await
    }

    async fn release_refresh(&self, link: LinkedAccountId, seen: SealedToken) -> RepoResult<()> {
        queries::update_link(link)
            .col_expr(
                linked_account::Column::RefreshLeaseUntilMs,
                Expr::value(Option::<i64>::None),
            )
            .filter(linked_account::Column::AccessToken.eq(seen.as_str()))
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }
}

/// The grant a link row holds, with its user's lock.
fn grant_from_row(row: linked_account::Model, user_locked: bool) -> LinkGrant {
    LinkGrant {
        link: LinkedAccountId::from_uuid(row.id),
        access_token: SealedToken::new(row.access_token),
        refresh_token: row.refresh_token.map(SealedToken::new),
        scopes: Scopes::from_stored(row.scopes),
        client_id: row.grant_client_id,
        access_expires_at: row.access_expires_ms.map(from_unix_ms),
        refresh_lease_until: row.refresh_lease_until_ms.map(from_unix_ms),
        disabled: row.disabled,
        user_locked,
    }
}
