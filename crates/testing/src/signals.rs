//! `SignalRepository` of the in-memory store: the receipt, the action and its events in one
//! step under the lock, as one transaction (the rules: `social_login_ports::signals`).

use crate::InMemoryRepository;
use crate::repository::Tables;
use async_trait::async_trait;
use social_login_domain::signal::{leaves_no_way_in, state_change_applies};
use social_login_domain::{
    AuditEventType, LoginMethod, SealedToken, SignalAction, SignalId, SignalSource,
};
use social_login_ports::{
    RepositoryError, SignalCommand, SignalOutcome, SignalReceipt, SignalRepository,
};
use time::OffsetDateTime;

#[async_trait]
impl SignalRepository for InMemoryRepository {
    async fn apply_signal(&self, command: SignalCommand) -> Result<SignalOutcome, RepositoryError> {
        self.transact(|tables| {
            let receipt = &command.receipt;
            match recorded(tables, receipt) {
                Recorded::Now => {}
                Recorded::Before => return Ok(SignalOutcome::Duplicate),
                Recorded::PayloadUsedElsewhere => return Ok(SignalOutcome::PayloadUsedElsewhere),
            }
            let provider = receipt.source.provider();
            let Some(link) = tables
                .links
                .iter()
                .find(|link| link.provider == provider && link.subject == command.subject)
                .cloned()
            else {
                return Ok(SignalOutcome::NotLinked);
            };
            let Some(owner) = tables.user(link.user_id).cloned() else {
                return Ok(SignalOutcome::NotLinked);
            };
            record(tables, receipt);
            let (user, audit) = (owner.id, &command.audit);
            let mut events = vec![audit.event(0, command.event, user, Some(provider))];
            let mut user_deleted = false;
            if command.action.ends_provider_sessions() {
                tables.revoke_sessions_of(user, Some(LoginMethod::Provider(provider)));
            }
            if command.action.forgets_tokens() {
                for stored in tables
                    .links
                    .iter_mut()
                    .filter(|stored| stored.id == link.id)
                {
                    stored.access_token = SealedToken::none();
                    stored.refresh_token = None;
                    stored.grant_client_id = None;
                }
            }
            match command.action {
                SignalAction::RemoveLink => {
                    if leaves_no_way_in(&owner, &tables.links_of(user), link.id) {
                        delete_user(tables, user);
                        events.push(audit.event(1, AuditEventType::UserDeleted, user, None));
                        user_deleted = true;
                    } else {
                        tables.links.retain(|stored| stored.id != link.id);
                        let unlinked = AuditEventType::AccountUnlinked;
                        events.push(audit.event(1, unlinked, user, Some(provider)));
                    }
                }
                SignalAction::DisableAccount | SignalAction::EnableAccount => {
                    let last = tables.disabled_changed.get(&link.id).copied();
                    if state_change_applies(command.occurred_at, last) {
                        tables.disabled_changed.insert(link.id, command.occurred_at);
                        if command.action == SignalAction::DisableAccount {
                            tables.disabled.insert(link.id);
                            tables.revoke_sessions_of(user, None);
                        } else {
                            tables.disabled.remove(&link.id);
                        }
                    }
                }
                _ => {}
            }
            for event in events {
                tables.record(event, audit.outbox)?;
            }
            Ok(SignalOutcome::Applied { user, user_deleted })
        })
    }

    async fn keep_receipt(
        &self,
        receipt: SignalReceipt,
    ) -> Result<Option<OffsetDateTime>, RepositoryError> {
        let mut tables = self.lock();
        if recorded(&tables, &receipt) == Recorded::PayloadUsedElsewhere {
            return Ok(None);
        }
        record(&mut tables, &receipt);
        Ok(tables.receipts.get(&(receipt.source, receipt.id)).copied())
    }

    async fn find_receipt(
        &self,
        source: SignalSource,
        id: &SignalId,
    ) -> Result<Option<OffsetDateTime>, RepositoryError> {
        Ok(self.lock().receipts.get(&(source, id.clone())).copied())
    }

    async fn prune_receipts(
        &self,
        before: OffsetDateTime,
        limit: u64,
    ) -> Result<u64, RepositoryError> {
        let mut tables = self.lock();
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut pruned = 0;
        tables.receipts.retain(|_, received_at| {
            let old = *received_at < before && pruned < limit;
            pruned += usize::from(old);
            !old
        });
        tables.payload_claims.retain(|_, received_at| {
            let old = *received_at < before && pruned < limit;
            pruned += usize::from(old);
            !old
        });
        Ok(pruned as u64)
    }
}

/// What the tables hold of `receipt` already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recorded {
    Now,
    Before,
    PayloadUsedElsewhere,
}

fn recorded(tables: &Tables, receipt: &SignalReceipt) -> Recorded {
    if tables
        .receipts
        .contains_key(&(receipt.source, receipt.id.clone()))
    {
        return Recorded::Before;
    }
    let claimed = receipt.payload.as_ref().is_some_and(|payload| {
        let scope = receipt.source.payload_scope();
        tables
            .payload_claims
            .contains_key(&(scope, payload.clone()))
    });
    if claimed {
        Recorded::PayloadUsedElsewhere
    } else {
        Recorded::Now
    }
}

/// Inserts the receipt and the claim on its payload, keeping what exists.
fn record(tables: &mut Tables, receipt: &SignalReceipt) {
    let at = receipt.received_at;
    tables
        .receipts
        .entry((receipt.source, receipt.id.clone()))
        .or_insert(at);
    if let Some(payload) = &receipt.payload {
        let scope = receipt.source.payload_scope();
        tables
            .payload_claims
            .entry((scope, payload.clone()))
            .or_insert(at);
    }
}

/// As ON DELETE CASCADE: the user's links, sessions and tokens go with it.
fn delete_user(tables: &mut Tables, user: social_login_domain::UserId) {
    tables.users.retain(|kept| kept.id != user);
    tables.links.retain(|link| link.user_id != user);
    tables.tokens.retain(|_, token| token.user_id != user);
    tables.families.retain(|_, family| family.user != user);
}
