//! `ProviderGrants` on SQLite: a link's tokens for a relayed call, and the refresh lease on
//! its row (the database file is what every process shares).

use super::columns::{execute, query_one, uuid_at};
use super::{SqliteRepository, sql};
use crate::audit::{from_unix_ms, unix_ms};
use async_trait::async_trait;
use rusqlite::{Row, params};
use social_login_domain::SealedTokens;
use social_login_domain::relay::{RefusedGrant, RelayRefresh};
use social_login_domain::{LinkedAccountId, ProviderKey, Scopes, SealedToken, UserId};
use social_login_ports::{
    GrantLookup, LeaseRelease, LinkGrant, ProviderGrants, RefreshClaim, RepoResult, RepositoryError,
};

#[async_trait]
impl ProviderGrants for SqliteRepository {
    async fn grant_of(&self, user: UserId, provider: ProviderKey) -> RepoResult<GrantLookup> {
        self.call(move |db| {
            let found = query_one(
                db,
                crate::relay_sql::GRANT_FOR_RELAY,
                params![user.as_uuid().into_bytes(), provider.as_str()],
                lookup_at,
            )?;
            Ok(found.unwrap_or(GrantLookup::NoUser))
        })
        .await
    }

    async fn claim_refresh(&self, claim: RefreshClaim) -> RepoResult<bool> {
        self.transact(move |db| {
            let claimed = execute(
                db,
                sql::CLAIM_REFRESH,
                params![
                    claim.link.as_uuid().into_bytes(),
                    claim.seen.as_str(),
                    unix_ms(claim.now),
                    unix_ms(claim.until),
                ],
            )?;
            Ok::<_, RepositoryError>(claimed == 1)
        })
        .await
    }

    async fn store_refresh(&self, refresh: RelayRefresh) -> RepoResult<bool> {
        self.apply_unless_gone(refresh.plan()).await
    }

    async fn release_refresh(&self, release: LeaseRelease) -> RepoResult<()> {
        self.transact(move |db| {
            let (link, seen) = (release.link.as_uuid().into_bytes(), release.seen.as_str());
            let until = unix_ms(release.until);
            execute(db, sql::RELEASE_OWN_LEASE, params![link, seen, until])?;
            Ok(())
        })
        .await
    }

    async fn store_refusal(&self, refusal: RefusedGrant) -> RepoResult<bool> {
        self.apply_unless_gone(refusal.plan()).await
    }
}

/// A row of `GRANT_FOR_RELAY`: the user's lock, and the link's columns (NULL: none).
fn lookup_at(row: &Row) -> rusqlite::Result<GrantLookup> {
    if row.get_ref(1)?.data_type() == rusqlite::types::Type::Null {
        return Ok(GrantLookup::NoLink);
    }
    Ok(GrantLookup::Grant(LinkGrant {
        user_locked: row.get(0)?,
        link: LinkedAccountId::from_uuid(uuid_at(row, 1)?),
        tokens: SealedTokens {
            access_token: SealedToken::new(row.get::<_, String>(2)?),
            refresh_token: row.get::<_, Option<String>>(3)?.map(SealedToken::new),
            scopes: Scopes::from_stored(row.get(4)?),
            client_id: row.get(5)?,
            access_expires_at: row.get::<_, Option<i64>>(6)?.map(from_unix_ms),
        },
        refresh_lease_until: row.get::<_, Option<i64>>(7)?.map(from_unix_ms),
        disabled: row.get(8)?,
    }))
}
