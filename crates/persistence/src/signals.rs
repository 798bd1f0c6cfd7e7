//! `SignalRepository` on sea-orm: a provider signal's action in one transaction with its
//! receipt and audit events (the rules: `social_login_ports::signals`, `domain::signal`).
//!
//! The receipt goes in first, `ON CONFLICT DO NOTHING` on its primary key: of two
//! transactions inserting the same one, PostgreSQL makes the second wait for the first and
//! then insert nothing, so the signal acts once whichever instance gets it. The user row is
//! locked (`FOR UPDATE`) before the link is read again, as a disconnect does, so a signal
//! and a disconnect or deletion of the same user never interleave; when the account changed
//! hands while the lock was awaited, its new holder is locked and read instead.

use crate::SeaOrmRepository;
use crate::audit::{from_unix_ms, unix_ms};
use crate::entity::{linked_account, signal_receipt, user};
use crate::error::repository_error;
use crate::mapping::user_from_row;
use crate::queries;
use crate::rows::{RowLock, locked_user_row};
use async_trait::async_trait;
use sea_orm::ActiveValue::Set;
use sea_orm::{DatabaseTransaction, EntityTrait, TransactionTrait, TryInsertResult};
use social_login_domain::signal_plan::SignalTarget;
use social_login_domain::{
    LinkedAccountId, ProviderKey, ProviderSubject, SignalId, SignalSource, UserId,
};
use social_login_ports::{
    RepoResult, RepositoryError, SignalCommand, SignalOutcome, SignalReceipt, SignalRepository,
};
use time::OffsetDateTime;

/// How often the account's owner is looked up again when it changed hands while its row
/// was awaited: each try is a disconnect and a new link committed in between.
const OWNER_TRIES: usize = 3;

/// The link of the provider account `subject` names, with its owner's row locked: read, then
/// read again under the owner's lock, since a disconnect may have removed the link meanwhile
/// and a login or connect may have given the account to another user. `None`: not linked.
/// Each try is a savepoint: one whose owner changed is rolled back, which lets the stale
/// owner's row go (PostgreSQL releases a lock taken after a savepoint rolled back to), so
/// two signals about accounts changing hands the opposite ways never hold each other's.
async fn locked_owner(
    txn: &DatabaseTransaction,
    provider: ProviderKey,
    subject: &ProviderSubject,
) -> RepoResult<Option<(UserId, user::Model, linked_account::Model)>> {
    for _ in 0..OWNER_TRIES {
        let attempt = txn.begin().await.map_err(repository_error)?;
        let look = || queries::link(provider, subject).one(&attempt);
        let Some(first_look) = look().await.map_err(repository_error)? else {
            return Ok(None);
        };
        let user = UserId::from_uuid(first_look.user_id);
        let owner = locked_user_row(&attempt, user, RowLock::Exclusive).await?;
        match (owner, look().await.map_err(repository_error)?) {
            (Some(owner), Some(link)) if link.user_id == first_look.user_id => {
                attempt.commit().await.map_err(repository_error)?;
                return Ok(Some((user, owner, link)));
            }
            (_, None) => return Ok(None),
            // Another user's now (or the owner went with the link): look again.
            _ => attempt.rollback().await.map_err(repository_error)?,
        }
    }
    Err(RepositoryError::Unavailable(
        "the provider account kept changing hands".into(),
    ))
}

/// What recording a receipt found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Recorded now: the signal is new.
    Now,
    /// Its receipt existed: handled before.
    Before,
    /// Its payload was claimed at another endpoint of the provider.
    PayloadUsedElsewhere,
}

#[async_trait]
impl SignalRepository for SeaOrmRepository {
    async fn apply_signal(&self, command: SignalCommand) -> RepoResult<SignalOutcome> {
        let txn = self.begin_write().await?;
        match record_receipt(&txn, &command.receipt).await? {
            Recorded::Now => {}
            Recorded::Before => return Ok(SignalOutcome::Duplicate),
            Recorded::PayloadUsedElsewhere => return Ok(SignalOutcome::PayloadUsedElsewhere),
        }
        let provider = command.receipt.source.provider();
        let Some((user, owner, link)) = locked_owner(&txn, provider, &command.subject).await?
        else {
            // Dropping the transaction rolls the receipt back: nothing is kept.
            return Ok(SignalOutcome::NotLinked);
        };
        let target = SignalTarget {
            link: LinkedAccountId::from_uuid(link.id),
            last_state_change: link.disabled_changed_ms.map(from_unix_ms),
            links: crate::rows::links_of(&*txn, user).await?,
            user: user_from_row(owner)?,
        };
        let plan = command.plan(&target);
        crate::plan::apply(&txn, &plan.writes).await?;
        txn.commit().await.map_err(repository_error)?;
        let user_deleted = plan.user_deleted;
        Ok(SignalOutcome::Applied { user, user_deleted })
    }

    async fn keep_receipt(&self, receipt: SignalReceipt) -> RepoResult<Option<OffsetDateTime>> {
        let txn = self.begin_write().await?;
        if record_receipt(&txn, &receipt).await? == Recorded::PayloadUsedElsewhere {
            return Ok(None);
        }
        let kept = queries::receipt(receipt.source, &receipt.id)
            .one(&*txn)
            .await
            .map_err(repository_error)?
            .ok_or_else(|| RepositoryError::Internal("the receipt just kept is gone".into()))?;
        txn.commit().await.map_err(repository_error)?;
        Ok(Some(from_unix_ms(kept.received_ms)))
    }

    async fn find_receipt(
        &self,
        source: SignalSource,
        id: &SignalId,
    ) -> RepoResult<Option<OffsetDateTime>> {
        Ok(queries::receipt(source, id)
            .one(self.connection())
            .await
            .map_err(repository_error)?
            .map(|row| from_unix_ms(row.received_ms)))
    }

    async fn prune_receipts(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        Ok(queries::delete_receipts_before(unix_ms(before), limit)
            .exec(self.connection())
            .await
            .map_err(repository_error)?
            .rows_affected)
    }
}

/// Inserts the receipt unless it exists, then the claim on its payload: the primary key
/// settles a payload posted to two endpoints at once.
async fn record_receipt(
    txn: &DatabaseTransaction,
    receipt: &SignalReceipt,
) -> RepoResult<Recorded> {
    let at = receipt.received_at;
    if !insert_receipt_row(txn, receipt.source.as_str(), &receipt.id, at).await? {
        return Ok(Recorded::Before);
    }
    if let Some(payload) = &receipt.payload {
        let scope = receipt.source.payload_scope();
        if !insert_receipt_row(txn, scope, payload, at).await? {
            return Ok(Recorded::PayloadUsedElsewhere);
        }
    }
    Ok(Recorded::Now)
}

/// Inserts a row of `signal_receipts` unless it exists; whether it was inserted now.
async fn insert_receipt_row(
    txn: &DatabaseTransaction,
    source: &str,
    id: &SignalId,
    received_at: OffsetDateTime,
) -> RepoResult<bool> {
    let inserted = signal_receipt::Entity::insert(signal_receipt::ActiveModel {
        source: Set(source.to_owned()),
        signal_id: Set(id.as_str().to_owned()),
        received_ms: Set(unix_ms(received_at)),
    })
    .on_conflict_do_nothing_on([
        signal_receipt::Column::Source,
        signal_receipt::Column::SignalId,
    ])
    .exec_without_returning(txn)
    .await
    .map_err(repository_error)?;
    Ok(matches!(inserted, TryInsertResult::Inserted(rows) if rows > 0))
}
