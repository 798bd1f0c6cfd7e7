//! `RefreshTokenRepository` on sea-orm: single-use refresh tokens with reuse detection.

use crate::SeaOrmRepository;
use crate::entity::refresh_token;
use crate::error::repository_error;
use crate::mapping::{refresh_from_row, refresh_to_row};
use async_trait::async_trait;
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use social_login_domain::refresh::{RefreshRecord, RefreshTokenHash, RefreshVerdict, judge};
use social_login_domain::{FamilyId, UserId};
use social_login_ports::{NewRefreshToken, RefreshTokenRepository, RepositoryError, RotateError};
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for SeaOrmRepository {
    async fn store_refresh(&self, token: NewRefreshToken) -> Result<(), RepositoryError> {
        refresh_token::Entity::insert(refresh_to_row(&token))
            .exec_without_returning(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }

    async fn rotate_refresh(
        &self,
        presented: RefreshTokenHash,
        successor_hash: RefreshTokenHash,
        now: OffsetDateTime,
        successor_expires_at: OffsetDateTime,
    ) -> Result<UserId, RotateError> {
        let txn = self.begin_write().await?;
        // The domain judges expiry, reuse and revocation; SQL only arbitrates the race.
        // (Expiry stays out of SQL also because SQLite stores timestamps as text that
        // does not compare chronologically.)
        let (user, family) = match judge(load(&txn, presented).await?.as_ref(), now) {
            RefreshVerdict::Rotate { user, family } => (user, family),
            RefreshVerdict::ReuseDetected { family } => {
                revoke_family(&txn, family).await?;
                txn.commit().await.map_err(repository_error)?;
                return Err(RotateError::ReuseDetected);
            }
            RefreshVerdict::Refuse => return Err(RotateError::Refused),
        };
        // Of concurrent rotations that all judged the token fresh, only one flips `used`
        // from false: on PostgreSQL the others wait on the row lock and then match no row.
        let claimed = refresh_token::Entity::update_many()
            .col_expr(refresh_token::Column::Used, Expr::value(true))
            .filter(refresh_token::Column::TokenHash.eq(presented.0.to_vec()))
            .filter(refresh_token::Column::Used.eq(false))
            .filter(refresh_token::Column::Revoked.eq(false))
            .exec(&txn)
            .await
            .map_err(repository_error)?
            .rows_affected
            == 1;
        if !claimed {
            // Lost the race: read what the winner committed. A second use of one token is
            // a reuse, whoever sent it.
            return match judge(load(&txn, presented).await?.as_ref(), now) {
                RefreshVerdict::ReuseDetected { family } => {
                    revoke_family(&txn, family).await?;
                    txn.commit().await.map_err(repository_error)?;
                    Err(RotateError::ReuseDetected)
                }
                _ => Err(RotateError::Refused),
            };
        }
        let successor = NewRefreshToken {
            hash: successor_hash,
            user_id: user,
            family,
            created_at: now,
            expires_at: successor_expires_at,
        };
        refresh_token::Entity::insert(refresh_to_row(&successor))
            .exec_without_returning(&txn)
            .await
            .map_err(repository_error)?;
        txn.commit().await.map_err(repository_error)?;
        Ok(user)
    }

    async fn revoke_refresh(&self, presented: RefreshTokenHash) -> Result<(), RepositoryError> {
        // One statement, so logout needs no transaction: revoke every token whose family
        // is the presented token's family (none if the token is unknown).
        let family_of_presented = Query::select()
            .column(refresh_token::Column::FamilyId)
            .from(refresh_token::Entity)
            .and_where(refresh_token::Column::TokenHash.eq(presented.0.to_vec()))
            .to_owned();
        refresh_token::Entity::update_many()
            .col_expr(refresh_token::Column::Revoked, Expr::value(true))
            .filter(refresh_token::Column::FamilyId.in_subquery(family_of_presented))
            .exec(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(())
    }
}

async fn load<C: ConnectionTrait>(
    db: &C,
    hash: RefreshTokenHash,
) -> Result<Option<RefreshRecord>, RepositoryError> {
    let row = refresh_token::Entity::find_by_id(hash.0.to_vec())
        .one(db)
        .await
        .map_err(repository_error)?;
    Ok(row.map(refresh_from_row))
}

async fn revoke_family<C: ConnectionTrait>(
    db: &C,
    family: FamilyId,
) -> Result<(), RepositoryError> {
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::Revoked, Expr::value(true))
        .filter(refresh_token::Column::FamilyId.eq(family.as_uuid()))
        .exec(db)
        .await
        .map_err(repository_error)?;
    Ok(())
}
