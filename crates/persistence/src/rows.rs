//! Reads the store shares: one row read as a domain value, a user's links in time order,
//! and the user or session row locked for the rest of a transaction.

use crate::entity::linked_account;
use crate::error::repository_error;
use crate::mapping::link_from_row;
use crate::queries;
use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, QuerySelect, Select};
use social_login_domain::{FamilyId, LinkedAccount, UserId};
use social_login_ports::RepoResult;

/// The row `find` selects, if any, read by `read`.
pub(crate) async fn one_as<E: EntityTrait, T>(
    db: &impl ConnectionTrait,
    find: Select<E>,
    read: impl FnOnce(E::Model) -> RepoResult<T>,
) -> RepoResult<Option<T>> {
    find.one(db)
        .await
        .map_err(repository_error)?
        .map(read)
        .transpose()
}

/// All links of `user`, oldest first.
pub(crate) async fn links_of<C: ConnectionTrait>(
    db: &C,
    user: UserId,
) -> RepoResult<Vec<LinkedAccount>> {
    let rows = queries::links_of(user)
        .all(db)
        .await
        .map_err(repository_error)?;
    links_from_rows(rows)
}

/// The link rows of `user`, locked for the rest of the transaction: a relayed refresh
/// storing new tokens meanwhile either lands first, and its tokens are the ones read, or
/// waits and finds what this transaction left.
pub(crate) async fn locked_link_rows(
    txn: &DatabaseTransaction,
    user: UserId,
) -> RepoResult<Vec<linked_account::Model>> {
    let find = locked(queries::links_of(user), txn, RowLock::Exclusive);
    find.all(txn).await.map_err(repository_error)
}

/// `rows` as links, oldest first.
pub(crate) fn links_from_rows(
    rows: impl IntoIterator<Item = linked_account::Model>,
) -> RepoResult<Vec<LinkedAccount>> {
    let mut links = rows
        .into_iter()
        .map(link_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    // Sorted here, not by ORDER BY: SQLite keeps timestamps as RFC 3339 text whose width
    // varies with the fraction of a second, so its text order is not time order.
    links.sort_by_key(|link| (link.created_at, link.id));
    Ok(links)
}

/// How a transaction locks a row it reads, on PostgreSQL (SQLite needs no lock: its single
/// connection runs one transaction at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowLock {
    /// `FOR UPDATE`: a concurrent unlink or deletion of the same user waits, then re-reads
    /// what this one left; so do writes of rows that refer to the user.
    Exclusive,
    /// `FOR NO KEY UPDATE`: a concurrent change of the user waits, but rows that refer to it
    /// may be inserted meanwhile (their foreign keys take only a key-share lock on the user).
    AgainstChanges,
    /// `FOR SHARE`: waits for an operator's lock in flight and makes a later one wait for
    /// this transaction: a session started here is refused by the lock, or ended by it.
    Shared,
}

/// `find` under `lock` on PostgreSQL; as it is on SQLite.
pub(crate) fn locked<E: EntityTrait>(
    find: Select<E>,
    txn: &DatabaseTransaction,
    lock: RowLock,
) -> Select<E> {
    if txn.get_database_backend() != DbBackend::Postgres {
        return find;
    }
    match lock {
        RowLock::Exclusive => find.lock_exclusive(),
        RowLock::AgainstChanges => find.lock(sea_orm::sea_query::LockType::NoKeyUpdate),
        RowLock::Shared => find.lock_shared(),
    }
}

/// The user row, locked until the transaction ends.
pub(crate) async fn locked_user_row(
    txn: &DatabaseTransaction,
    user: UserId,
    lock: RowLock,
) -> RepoResult<Option<crate::entity::user::Model>> {
    let find = locked(queries::user_by_id(user), txn, lock);
    find.one(txn).await.map_err(repository_error)
}

/// Whether an operator locked the user (a missing user is not locked: the foreign key
/// refuses what refers to it), read under `lock`.
pub(crate) async fn user_is_locked(
    txn: &DatabaseTransaction,
    user: UserId,
    lock: RowLock,
) -> RepoResult<bool> {
    let find = queries::user_by_id(user)
        .select_only()
        .column(crate::entity::user::Column::Locked);
    let find = locked(find, txn, lock);
    let locked: Option<bool> = find.into_tuple().one(txn).await.map_err(repository_error)?;
    Ok(locked.unwrap_or(false))
}

/// The session's family row, locked exclusively until the transaction ends (on PostgreSQL).
pub(crate) async fn locked_family_row(
    txn: &DatabaseTransaction,
    family: FamilyId,
) -> RepoResult<Option<crate::entity::refresh_family::Model>> {
    let find = locked(queries::family(family.as_uuid()), txn, RowLock::Exclusive);
    find.one(txn).await.map_err(repository_error)
}
