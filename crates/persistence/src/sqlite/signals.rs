//! `SignalRepository` on SQLite (see `crate::signals` for the rules). The single connection
//! runs one transaction at a time: the receipt's primary key settles two processes sharing
//! the file, and nothing interleaves within one.

use super::columns::{count, execute, query_one, uuid_at};
use super::rows::{find_user, links_of};
use super::statements::Db;
use super::{SqliteRepository, sql};
use crate::audit::{from_unix_ms, unix_ms};
use crate::signals::Recorded;
use async_trait::async_trait;
use rusqlite::params;
use social_login_domain::signal_plan::SignalTarget;
use social_login_domain::{LinkedAccountId, SignalId, SignalSource, UserId};
use social_login_ports::{
    RepoResult, RepositoryError, SignalCommand, SignalOutcome, SignalReceipt, SignalRepository,
};
use time::OffsetDateTime;

/// The link a signal names: its id, its user, the last disabled/enabled change applied.
struct SignalledLink {
    id: LinkedAccountId,
    user: UserId,
    disabled_changed: Option<OffsetDateTime>,
}

#[async_trait]
impl SignalRepository for SqliteRepository {
    async fn apply_signal(&self, command: SignalCommand) -> RepoResult<SignalOutcome> {
        self.transact(move |tx| apply(tx, &command)).await
    }

    async fn keep_receipt(&self, receipt: SignalReceipt) -> RepoResult<Option<OffsetDateTime>> {
        self.transact(move |tx| {
            if recorded(tx, &receipt)? == Recorded::PayloadUsedElsewhere {
                return Ok(None);
            }
            insert_receipt(tx, &receipt)?;
            received_at(tx, receipt.source, &receipt.id)?
                .map(Some)
                .ok_or_else(|| RepositoryError::Internal("the receipt just kept is gone".into()))
        })
        .await
    }

    async fn find_receipt(
        &self,
        source: SignalSource,
        id: &SignalId,
    ) -> RepoResult<Option<OffsetDateTime>> {
        let id = id.clone();
        self.call(move |db| received_at(db, source, &id)).await
    }

    async fn prune_receipts(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let limit = count(limit);
        self.transact(move |tx| {
            execute(
                tx,
                sql::DELETE_RECEIPTS_BEFORE,
                params![unix_ms(before), limit],
            )
        })
        .await
        .map(|deleted| deleted as u64)
    }
}

/// Applies a signal in the caller's transaction. A duplicate, or a signal about no link,
/// writes nothing, not even the receipt: looked up before anything is written, in the
/// transaction that holds the write lock, so nothing can change in between.
fn apply(db: &Db, command: &SignalCommand) -> RepoResult<SignalOutcome> {
    let receipt = &command.receipt;
    match recorded(db, receipt)? {
        Recorded::Now => {}
        Recorded::Before => return Ok(SignalOutcome::Duplicate),
        Recorded::PayloadUsedElsewhere => return Ok(SignalOutcome::PayloadUsedElsewhere),
    }
    let provider = command.receipt.source.provider();
    let link = query_one(
        db,
        sql::SIGNALLED_LINK,
        params![provider.as_str(), command.subject.as_str()],
        |row| {
            Ok(SignalledLink {
                id: LinkedAccountId::from_uuid(uuid_at(row, 0)?),
                user: UserId::from_uuid(uuid_at(row, 1)?),
                disabled_changed: row.get::<_, Option<i64>>(2)?.map(from_unix_ms),
            })
        },
    )?;
    let Some(link) = link else {
        return Ok(SignalOutcome::NotLinked);
    };
    let Some(owner) = find_user(db, link.user)? else {
        return Ok(SignalOutcome::NotLinked);
    };
    if !insert_receipt(db, receipt)? {
        return Ok(SignalOutcome::Duplicate);
    }
    let target = SignalTarget {
        link: link.id,
        last_state_change: link.disabled_changed,
        links: links_of(db, link.user)?,
        user: owner,
    };
    let plan = command.plan(&target);
    super::plan::apply(db, &plan.writes)?;
    Ok(SignalOutcome::Applied {
        user: link.user,
        user_deleted: plan.user_deleted,
    })
}

/// Whether the receipt, or a claim on its payload, is recorded already; read in the
/// transaction that holds the write lock, so nothing can change before [`insert_receipt`].
fn recorded(db: &Db, receipt: &SignalReceipt) -> RepoResult<Recorded> {
    if received_at(db, receipt.source, &receipt.id)?.is_some() {
        return Ok(Recorded::Before);
    }
    if let Some(payload) = &receipt.payload {
        let claimed = query_one(
            db,
            sql::RECEIPT,
            params![receipt.source.payload_scope(), payload.as_str()],
            |row| row.get::<_, i64>(0),
        )?;
        if claimed.is_some() {
            return Ok(Recorded::PayloadUsedElsewhere);
        }
    }
    Ok(Recorded::Now)
}

/// Inserts the receipt, and the claim on its payload, unless they exist; whether the
/// receipt was inserted now.
fn insert_receipt(db: &Db, receipt: &SignalReceipt) -> RepoResult<bool> {
    let at = unix_ms(receipt.received_at);
    let row = |source: &str, id: &SignalId| {
        execute(db, sql::INSERT_RECEIPT, params![source, id.as_str(), at])
    };
    let inserted = row(receipt.source.as_str(), &receipt.id)?;
    if let Some(payload) = &receipt.payload {
        row(receipt.source.payload_scope(), payload)?;
    }
    Ok(inserted > 0)
}

fn received_at(db: &Db, source: SignalSource, id: &SignalId) -> RepoResult<Option<OffsetDateTime>> {
    Ok(query_one(
        db,
        sql::RECEIPT,
        params![source.as_str(), id.as_str()],
        |row| row.get::<_, i64>(0),
    )?
    .map(from_unix_ms))
}
