//! Acting on a verified signal, as a write plan (see [`crate::plan`]): what each
//! [`SignalAction`] writes to the link it names and to that user.

use crate::plan::{Write, WritePlan};
use crate::signal::{leaves_no_way_in, state_change_applies};
use crate::{
    AuditContext, AuditEventType, LinkedAccount, LinkedAccountId, LoginMethod, ProviderSubject,
    SignalAction, SignalId, SignalSource, User,
};
use time::OffsetDateTime;

/// The record that a signal was handled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalReceipt {
    pub source: SignalSource,
    pub id: SignalId,
    pub received_at: OffsetDateTime,
    /// The id its signed payload has at every endpoint of its provider, when one payload
    /// could be posted to several (a Facebook `signed_request`). Claimed for the provider in
    /// the same transaction as the receipt, so the payload acts at one endpoint only.
    pub payload: Option<SignalId>,
}

/// A verified signal about a provider account, to act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalCommand {
    pub receipt: SignalReceipt,
    /// The account of `receipt.source`'s provider it names.
    pub subject: ProviderSubject,
    pub action: SignalAction,
    /// The audit event recorded for the linked user.
    pub event: AuditEventType,
    /// When the change it reports happened: orders account-state changes that arrive out
    /// of order.
    pub occurred_at: OffsetDateTime,
    /// Ids for the signal's event and, when a link is removed, `account.unlinked` or
    /// `user.deleted`.
    pub audit: AuditContext,
}

/// The link a signal names, as its transaction read it under the user's lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalTarget {
    pub link: LinkedAccountId,
    /// When the provider last changed the account's state (disabled, enabled), if ever.
    pub last_state_change: Option<OffsetDateTime>,
    pub user: User,
    /// All of the user's links, the named one included.
    pub links: Vec<LinkedAccount>,
}

/// What a signal writes, and whether it deletes the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalPlan {
    pub writes: WritePlan,
    pub user_deleted: bool,
}

impl SignalCommand {
    /// The action's writes on `target` (`domain::signal` says what each action does), with
    /// the signal's event for the user, and `account.unlinked` or `user.deleted` when the
    /// link goes; a link that goes takes the profile the user registered with through it.
    /// An account-state change older than the last one applied changes nothing.
    pub fn plan(&self, target: &SignalTarget) -> SignalPlan {
        let provider = self.receipt.source.provider();
        let (user, link, audit) = (target.user.id, target.link, &self.audit);
        let mut writes = WritePlan::new(audit.outbox);
        writes.record(audit.event(0, self.event, user, Some(provider)));
        if self.action.ends_provider_sessions() {
            writes.write(Write::RevokeSessions {
                user,
                began_with: Some(LoginMethod::Provider(provider)),
            });
        }
        if self.action.forgets_tokens() {
            let at = self.receipt.received_at;
            writes.write(Write::ForgetTokens { link, at });
        }
        let mut user_deleted = false;
        match self.action {
            SignalAction::RemoveLink if leaves_no_way_in(&target.user, &target.links, link) => {
                // As DELETE /users/me: links, sessions and tokens go with the user.
                writes.write(Write::DeleteUser(user)).record(audit.event(
                    1,
                    AuditEventType::UserDeleted,
                    user,
                    None,
                ));
                user_deleted = true;
            }
            SignalAction::RemoveLink => {
                let unlinked = AuditEventType::AccountUnlinked;
                writes.write(Write::DeleteLink(link)).record(audit.event(
                    1,
                    unlinked,
                    user,
                    Some(provider),
                ));
                let named = target.links.iter().find(|stored| stored.id == link);
                if named.is_some_and(|named| target.user.registered_through(named)) {
                    // What the account gave at registration is its provider's data too; a
                    // backend that keeps a copy learns it went.
                    let erased = AuditEventType::UserProfileErased;
                    writes.write(Write::ForgetProfile(user)).record(audit.event(
                        2,
                        erased,
                        user,
                        Some(provider),
                    ));
                }
            }
            SignalAction::DisableAccount | SignalAction::EnableAccount
                if state_change_applies(self.occurred_at, target.last_state_change) =>
            {
                let disabled = self.action == SignalAction::DisableAccount;
                let at = self.occurred_at;
                writes.write(Write::SetDisabled { link, disabled, at });
                if disabled {
                    writes.write(Write::RevokeSessions {
                        user,
                        began_with: None,
                    });
                }
            }
            _ => {}
        }
        SignalPlan {
            writes,
            user_deleted,
        }
    }
}
