//! Reads several of the store's transactions share: a user's links in time order, and the
//! user row locked for the rest of a transaction.

use crate::error::repository_error;
use crate::mapping::link_from_row;
use crate::queries;
use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, QuerySelect};
use social_login_domain::{LinkedAccount, UserId};
use social_login_ports::RepositoryError;

/// All links of `user`, oldest first.
pub(crate) async fn links_of<C: ConnectionTrait>(
    db: &C,
    user: UserId,
) -> Result<Vec<LinkedAccount>, RepositoryError> {
    let rows = queries::links_of(user)
        .all(db)
        .await
        .map_err(repository_error)?;
    let mut links = rows
        .into_iter()
        .map(link_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    // Sorted here, not by ORDER BY: SQLite keeps timestamps as RFC 3339 text whose width
    // varies with the fraction of a second, so its text order is not time order.
    links.sort_by_key(|link| (link.created_at, link.id));
    Ok(links)
}

/// The user row, locked on PostgreSQL until the transaction ends: a concurrent unlink,
/// deletion or lock of the same user waits, then re-reads what this one left.
pub(crate) async fn locked_user_row(
    txn: &DatabaseTransaction,
    user: UserId,
) -> Result<Option<crate::entity::user::Model>, RepositoryError> {
    let mut find = queries::user_by_id(user);
    if txn.get_database_backend() == DbBackend::Postgres {
        find = find.lock_exclusive();
    }
    find.one(txn).await.map_err(repository_error)
}
