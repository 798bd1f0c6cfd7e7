//! `ProviderGrants` on sea-orm: a link's tokens for a relayed call, and the refresh lease
//! on its row that lets one caller of any instance refresh them.

use crate::SeaOrmRepository;
use crate::audit::{from_unix_ms, unix_ms};
use crate::entity::linked_account;
use crate::error::repository_error;
use crate::queries;
use crate::raw_sql::statement;
use crate::relay_sql::GRANT_FOR_RELAY;
use async_trait::async_trait;
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, QueryFilter, QueryResult};
use social_login_domain::SealedTokens;
use social_login_domain::relay::{RefusedGrant, RelayRefresh};
use social_login_domain::{LinkedAccountId, ProviderKey, Scopes, SealedToken, UserId};
use social_login_ports::{
    GrantLookup, LeaseRelease, LinkGrant, ProviderGrants, RefreshClaim, RepoResult,
};
use uuid::Uuid;

#[async_trait]
impl ProviderGrants for SeaOrmRepository {
    async fn grant_of(&self, user: UserId, provider: ProviderKey) -> RepoResult<GrantLookup> {
        let db = self.connection();
        let values = vec![user.as_uuid().into(), provider.as_str().into()];
        let query = statement(db.get_database_backend(), GRANT_FOR_RELAY, values);
        let Some(row) = db.query_one_raw(query).await.map_err(repository_error)? else {
            return Ok(GrantLookup::NoUser);
        };
        lookup_from(&row).map_err(repository_error)
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

    async fn release_refresh(&self, release: LeaseRelease) -> RepoResult<()> {
        let own = linked_account::Column::RefreshLeaseUntilMs.eq(unix_ms(release.until));
        queries::release_lease(release.link, &release.seen)
            .filter(own)
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }

    async fn store_refusal(&self, refusal: RefusedGrant) -> RepoResult<bool> {
        self.apply_unless_gone(refusal.plan()).await
    }
}

/// A row of `GRANT_FOR_RELAY`, read by column name.
fn lookup_from(row: &QueryResult) -> Result<GrantLookup, DbErr> {
    let Some(link) = row.try_get::<Option<Uuid>>("", "id")? else {
        return Ok(GrantLookup::NoLink);
    };
    let millis = |column: &str| row.try_get::<Option<i64>>("", column);
    Ok(GrantLookup::Grant(LinkGrant {
        link: LinkedAccountId::from_uuid(link),
        tokens: SealedTokens {
            access_token: SealedToken::new(row.try_get::<String>("", "access_token")?),
            refresh_token: row
                .try_get::<Option<String>>("", "refresh_token")?
                .map(SealedToken::new),
            scopes: Scopes::from_stored(row.try_get("", "scopes")?),
            client_id: row.try_get("", "grant_client_id")?,
            access_expires_at: millis("access_expires_ms")?.map(from_unix_ms),
        },
        refresh_lease_until: millis("refresh_lease_until_ms")?.map(from_unix_ms),
        disabled: row.try_get("", "disabled")?,
        user_locked: row.try_get("", "locked")?,
    }))
}
