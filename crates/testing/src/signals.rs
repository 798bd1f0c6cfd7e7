//! `SignalRepository` of the in-memory store: the receipt, the action and its events in one
//! step under the lock, as one transaction (the rules: `social_login_ports::signals`).

use crate::InMemoryRepository;
use crate::repository::Tables;
use async_trait::async_trait;
use social_login_domain::signal_plan::SignalTarget;
use social_login_domain::{SignalId, SignalSource};
use social_login_ports::{
    RepoResult, SignalCommand, SignalOutcome, SignalReceipt, SignalRepository,
};
use time::OffsetDateTime;

#[async_trait]
impl SignalRepository for InMemoryRepository {
    async fn apply_signal(&self, command: SignalCommand) -> RepoResult<SignalOutcome> {
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
            let target = SignalTarget {
                link: link.id,
                last_state_change: tables.disabled_changed.get(&link.id).copied(),
                links: tables.links_of(owner.id),
                user: owner,
            };
            let plan = command.plan(&target);
            let user = target.user.id;
            tables.apply(plan.writes)?;
            Ok(SignalOutcome::Applied {
                user,
                user_deleted: plan.user_deleted,
            })
        })
    }

    async fn keep_receipt(&self, receipt: SignalReceipt) -> RepoResult<Option<OffsetDateTime>> {
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
    ) -> RepoResult<Option<OffsetDateTime>> {
        Ok(self.lock().receipts.get(&(source, id.clone())).copied())
    }

    async fn prune_receipts(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
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
