//! `SignalRepository` on sea-orm: a provider signal's action in one transaction with its
//! receipt and audit events (the rules: `social_login_ports::signals`, `domain::signal`).
//!
//! The receipt goes in first, `ON CONFLICT DO NOTHING` on its primary key: of two
//! transactions inserting the same one, PostgreSQL makes the second wait for the first and
//! then insert nothing, so the signal acts once whichever instance gets it. The user row is
//! locked (`FOR UPDATE`) before the link is read again, as a disconnect does, so a signal
//! and a disconnect or deletion of the same user never interleave.

use crate::SeaOrmRepository;
use crate::audit::{from_unix_ms, unix_ms};
use crate::entity::{linked_account, signal_receipt, user};
use crate::error::repository_error;
use crate::mapping::user_from_row;
use crate::queries;
use async_trait::async_trait;
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, QuerySelect, TryInsertResult,
};
use social_login_domain::signal::{leaves_no_way_in, state_change_applies};
use social_login_domain::{
    AuditEventType, LoginMethod, SignalAction, SignalId, SignalSource, UserId,
};
use social_login_ports::{
    RepositoryError, SignalCommand, SignalOutcome, SignalReceipt, SignalRepository,
};
use time::OffsetDateTime;

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
    async fn apply_signal(&self, command: SignalCommand) -> Result<SignalOutcome, RepositoryError> {
        let txn = self.begin_write().await?;
        match record_receipt(&txn, &command.receipt).await? {
            Recorded::Now => {}
            Recorded::Before => return Ok(SignalOutcome::Duplicate),
            Recorded::PayloadUsedElsewhere => return Ok(SignalOutcome::PayloadUsedElsewhere),
        }
        let provider = command.receipt.source.provider();
        let Some(first_look) = queries::link(provider, &command.subject)
            .one(&txn)
            .await
            .map_err(repository_error)?
        else {
            // Dropping the transaction rolls the receipt back: nothing is kept.
            return Ok(SignalOutcome::NotLinked);
        };
        let user = UserId::from_uuid(first_look.user_id);
        let mut find_user = queries::user_by_id(user);
        if txn.get_database_backend() == DbBackend::Postgres {
            find_user = find_user.lock_exclusive();
        }
        let owner = find_user.one(&txn).await.map_err(repository_error)?;
        // Read again under the user's lock: a disconnect may have removed it meanwhile.
        let link = queries::link(provider, &command.subject)
            .one(&txn)
            .await
            .map_err(repository_error)?;
        let (Some(owner), Some(link)) = (owner, link) else {
            return Ok(SignalOutcome::NotLinked);
        };
        let user_deleted = act(&txn, &command, link, owner).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(SignalOutcome::Applied { user, user_deleted })
    }

    async fn keep_receipt(
        &self,
        receipt: SignalReceipt,
    ) -> Result<Option<OffsetDateTime>, RepositoryError> {
        let txn = self.begin_write().await?;
        if record_receipt(&txn, &receipt).await? == Recorded::PayloadUsedElsewhere {
            return Ok(None);
        }
        let kept = queries::receipt(receipt.source, &receipt.id)
            .one(&txn)
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
    ) -> Result<Option<OffsetDateTime>, RepositoryError> {
        Ok(queries::receipt(source, id)
            .one(self.connection())
            .await
            .map_err(repository_error)?
            .map(|row| from_unix_ms(row.received_ms)))
    }

    async fn prune_receipts(
        &self,
        before: OffsetDateTime,
        limit: u64,
    ) -> Result<u64, RepositoryError> {
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
) -> Result<Recorded, RepositoryError> {
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
) -> Result<bool, RepositoryError> {
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

/// Takes the command's action on `link` of `owner`, and records its events. Whether the
/// user was deleted.
async fn act(
    txn: &DatabaseTransaction,
    command: &SignalCommand,
    link: linked_account::Model,
    owner: user::Model,
) -> Result<bool, RepositoryError> {
    let provider = command.receipt.source.provider();
    let user = UserId::from_uuid(owner.id);
    let audit = &command.audit;
    let mut events = vec![audit.event(0, command.event, user, Some(provider))];
    let mut user_deleted = false;
    if command.action.ends_provider_sessions() {
        queries::revoke_sessions_of(user, Some(LoginMethod::Provider(provider)))
            .exec(txn)
            .await
            .map_err(repository_error)?;
    }
    if command.action.forgets_tokens() {
        forget_tokens(txn, link.id, command.receipt.received_at).await?;
    }
    match command.action {
        SignalAction::RemoveLink => {
            let owner = user_from_row(owner)?;
            let links = crate::rows::links_of(txn, user).await?;
            let removed = social_login_domain::LinkedAccountId::from_uuid(link.id);
            if leaves_no_way_in(&owner, &links, removed) {
                // As DELETE /users/me: links, sessions and tokens go with the user.
                user::Entity::delete_by_id(user.as_uuid())
                    .exec(txn)
                    .await
                    .map_err(repository_error)?;
                events.push(audit.event(1, AuditEventType::UserDeleted, user, None));
                user_deleted = true;
            } else {
                linked_account::Entity::delete_by_id(link.id)
                    .exec(txn)
                    .await
                    .map_err(repository_error)?;
                let unlinked = AuditEventType::AccountUnlinked;
                events.push(audit.event(1, unlinked, user, Some(provider)));
            }
        }
        SignalAction::DisableAccount | SignalAction::EnableAccount => {
            let disable = command.action == SignalAction::DisableAccount;
            let last = link.disabled_changed_ms.map(from_unix_ms);
            if state_change_applies(command.occurred_at, last) {
                set_disabled(txn, link.id, disable, command.occurred_at).await?;
                if disable {
                    queries::revoke_sessions_of(user, None)
                        .exec(txn)
                        .await
                        .map_err(repository_error)?;
                }
            }
        }
        _ => {}
    }
    crate::audit::record_all(txn, events, audit.outbox).await?;
    Ok(user_deleted)
}

/// The link stays; its provider tokens go (the empty access token is "none").
async fn forget_tokens(
    txn: &DatabaseTransaction,
    link: uuid::Uuid,
    now: OffsetDateTime,
) -> Result<(), RepositoryError> {
    let link = social_login_domain::LinkedAccountId::from_uuid(link);
    queries::update_link(link)
        .col_expr(linked_account::Column::AccessToken, Expr::value(""))
        .col_expr(
            linked_account::Column::RefreshToken,
            Expr::value(Option::<String>::None),
        )
        .col_expr(
            linked_account::Column::GrantClientId,
            Expr::value(Option::<String>::None),
        )
        .col_expr(linked_account::Column::UpdatedAt, Expr::value(now))
        .exec(txn)
        .await
        .map_err(repository_error)?;
    Ok(())
}

async fn set_disabled(
    txn: &DatabaseTransaction,
    link: uuid::Uuid,
    disabled: bool,
    at: OffsetDateTime,
) -> Result<(), RepositoryError> {
    let link = social_login_domain::LinkedAccountId::from_uuid(link);
    queries::update_link(link)
        .col_expr(linked_account::Column::Disabled, Expr::value(disabled))
        .col_expr(
            linked_account::Column::DisabledChangedMs,
            Expr::value(Some(unix_ms(at))),
        )
        .exec(txn)
        .await
        .map_err(repository_error)?;
    Ok(())
}
