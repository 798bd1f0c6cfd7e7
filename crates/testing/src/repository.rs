//! One in-memory store for users, links and refresh tokens, as `SeaOrmRepository` is one
//! database: a provider login writes to both in one step, so both live behind one lock.

use social_login_domain::refresh::{
    PresentedRefresh, RefreshFamily, RefreshRecord, RefreshTokenHash,
};
use social_login_domain::{
    AuditEvent, Email, EventSet, FamilyId, LinkedAccount, LinkedAccountId, LoginMethod,
    NewLinkedAccount, ProviderKey, SealedToken, SignalId, SignalSource, User, UserId,
};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};
use time::OffsetDateTime;

/// Users, links and sessions behind one lock, so each port call is as atomic as a
/// transaction. Enforces what the schema enforces: unique claimed email ignoring case,
/// unique (provider, subject), unique (user, provider), and links only to existing users.
#[derive(Default)]
pub struct InMemoryRepository {
    tables: Mutex<Tables>,
}

#[derive(Default, Clone)]
pub(crate) struct Tables {
    pub(crate) users: Vec<User>,
    /// Kept with their sealed tokens, as the `linked_accounts` table keeps them.
    pub(crate) links: Vec<NewLinkedAccount>,
    pub(crate) tokens: HashMap<RefreshTokenHash, Token>,
    pub(crate) families: HashMap<FamilyId, Family>,
    pub(crate) revoked: HashSet<FamilyId>,
    /// In the order written.
    pub(crate) events: Vec<AuditEvent>,
    pub(crate) outbox: Vec<OutboxRow>,
    pub(crate) next_seq: u64,
    /// When the next probe of an away webhook receiver may go (`webhook_probe_turn`).
    pub(crate) next_probe: Option<OffsetDateTime>,
    /// Links their provider reported disabled, and when each link's state last changed.
    pub(crate) disabled: HashSet<LinkedAccountId>,
    pub(crate) disabled_changed: HashMap<LinkedAccountId, OffsetDateTime>,
    /// Signals handled, as `signal_receipts` keeps them (its primary key: source and id).
    pub(crate) receipts: HashMap<(SignalSource, SignalId), OffsetDateTime>,
    /// Claims on signed payloads, by the provider's payload scope and the payload's id.
    pub(crate) payload_claims: HashMap<(&'static str, SignalId), OffsetDateTime>,
    /// Until when one caller is refreshing a link's provider tokens.
    pub(crate) refresh_leases: HashMap<LinkedAccountId, OffsetDateTime>,
}

/// An event waiting for its webhook delivery.
#[derive(Clone)]
pub(crate) struct OutboxRow {
    pub(crate) seq: u64,
    pub(crate) event: AuditEvent,
    pub(crate) attempts: u32,
    pub(crate) next_attempt: OffsetDateTime,
    pub(crate) locked_until: Option<OffsetDateTime>,
    /// Set when the row became a dead letter.
    pub(crate) dead_at: Option<OffsetDateTime>,
    pub(crate) last_error: Option<String>,
    pub(crate) redelivered: Option<OffsetDateTime>,
}

/// A session: whose, when it ends, when and how the login that started it happened.
#[derive(Clone, Copy)]
pub(crate) struct Family {
    pub(crate) user: UserId,
    pub(crate) created_at: OffsetDateTime,
    pub(crate) ends_at: OffsetDateTime,
    pub(crate) auth_time: OffsetDateTime,
    pub(crate) began_with: Option<LoginMethod>,
}

#[derive(Clone)]
pub(crate) struct Token {
    pub(crate) user_id: UserId,
    pub(crate) family: FamilyId,
    pub(crate) issued_at: OffsetDateTime,
    pub(crate) expires_at: OffsetDateTime,
    pub(crate) used: bool,
}

impl Token {
    /// A stored `token`, not used yet.
    pub(crate) fn unused(token: &social_login_ports::NewRefreshToken) -> Self {
        Self {
            user_id: token.user_id,
            family: token.family,
            issued_at: token.created_at,
            expires_at: token.expires_at,
            used: false,
        }
    }
}

impl social_login_ports::Repository for InMemoryRepository {}

impl InMemoryRepository {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap()
    }

    /// The store's transaction: `change` works on a copy of the tables under the lock, and
    /// the copy replaces them only when all of it succeeded.
    pub(crate) fn transact<T, E>(
        &self,
        change: impl FnOnce(&mut Tables) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut committed = self.lock();
        let mut tables = committed.clone();
        let done = change(&mut tables)?;
        *committed = tables;
        Ok(done)
    }

    pub fn user_count(&self) -> usize {
        self.lock().users.len()
    }

    pub fn link_count(&self) -> usize {
        self.lock().links.len()
    }

    /// Every audit event recorded, oldest first.
    pub fn events(&self) -> Vec<AuditEvent> {
        self.lock().events.clone()
    }

    /// Refresh tokens stored, of every session.
    pub fn stored_count(&self) -> usize {
        self.lock().tokens.len()
    }

    /// The sealed (access, refresh) tokens stored with the link of this provider account.
    pub fn stored_tokens(
        &self,
        provider: ProviderKey,
        subject: &str,
    ) -> Option<(SealedToken, Option<SealedToken>)> {
        let tables = self.lock();
        tables
            .links
            .iter()
            .find(|link| link.provider == provider && link.subject.as_str() == subject)
            .map(|link| {
                (
                    link.tokens.access_token.clone(),
                    link.tokens.refresh_token.clone(),
                )
            })
    }
}

impl Tables {
    pub(crate) fn user(&self, id: UserId) -> Option<&User> {
        self.users.iter().find(|user| user.id == id)
    }

    /// The user who claims `email`; unverified provider emails claim nothing (the schema
    /// keeps them out of the unique column).
    pub(crate) fn claimant(&self, email: &Email) -> Option<&User> {
        self.users.iter().find(|user| {
            user.claimed_email()
                .is_some_and(|claimed| claimed.matches(email))
        })
    }

    pub(crate) fn account_taken(&self, link: &NewLinkedAccount) -> bool {
        self.links
            .iter()
            .any(|old| old.provider == link.provider && old.subject == link.subject)
    }

    pub(crate) fn provider_taken(&self, link: &NewLinkedAccount) -> bool {
        self.links
            .iter()
            .any(|old| old.user_id == link.user_id && old.provider == link.provider)
    }

    pub(crate) fn links_of(&self, user: UserId) -> Vec<LinkedAccount> {
        let mut links: Vec<LinkedAccount> = self
            .links
            .iter()
            .filter(|link| link.user_id == user)
            .map(|link| self.linked_account(link))
            .collect();
        links.sort_by_key(|link| (link.created_at, link.id));
        links
    }

    /// `link` as the stores read it, with whether its provider reported it disabled.
    pub(crate) fn linked_account(&self, link: &NewLinkedAccount) -> LinkedAccount {
        LinkedAccount {
            disabled: self.disabled.contains(&link.id),
            ..link.to_linked_account()
        }
    }

    /// The session `id` as the stores read it, revoked or not.
    pub(crate) fn family(&self, id: FamilyId) -> Option<RefreshFamily> {
        let family = self.families.get(&id)?;
        Some(RefreshFamily {
            id,
            user_id: family.user,
            revoked: self.revoked.contains(&id),
            expires_at: family.ends_at,
            auth_time: family.auth_time,
        })
    }

    /// The presented token as the stores read it: its row with its family, or, for a
    /// token whose row went, the family it proves.
    pub(crate) fn refresh_record(&self, presented: &PresentedRefresh) -> Option<RefreshRecord> {
        let family = |id: FamilyId| self.family(id);
        match self.tokens.get(&presented.hash) {
            Some(token) => Some(RefreshRecord::stored(
                token.expires_at,
                token.used,
                &family(token.family)?,
            )),
            None => RefreshRecord::row_gone(presented, &family(presented.issued_in?.family)?),
        }
    }

    /// What the schema refuses when a session starts: a token or family that exists
    /// (primary keys), or a user that does not (foreign key).
    pub(crate) fn check_session(
        &self,
        first: &social_login_ports::NewRefreshToken,
    ) -> Result<(), social_login_ports::RepositoryError> {
        let refused = |why: &str| Err(social_login_ports::RepositoryError::Internal(why.into()));
        if self.tokens.contains_key(&first.hash) || self.families.contains_key(&first.family) {
            return refused("duplicate key");
        }
        if self.user(first.user_id).is_none() {
            return refused("foreign key: no such user");
        }
        Ok(())
    }

    /// Records `event` and queues it when `outbox` wants its type; a duplicate id is
    /// refused, as the primary key would.
    pub(crate) fn record(
        &mut self,
        event: AuditEvent,
        outbox: EventSet,
    ) -> Result<(), social_login_ports::RepositoryError> {
        if self.events.iter().any(|old| old.id == event.id) {
            return Err(social_login_ports::RepositoryError::Internal(
                "duplicate event id".into(),
            ));
        }
        if outbox.contains(event.kind) {
            self.next_seq += 1;
            self.outbox.push(OutboxRow {
                seq: self.next_seq,
                event: event.clone(),
                attempts: 0,
                next_attempt: event.created_at,
                locked_until: None,
                dead_at: None,
                last_error: None,
                redelivered: None,
            });
        }
        self.events.push(event);
        Ok(())
    }

    /// Revokes the live sessions of `user` that `began_with` began, or all of them.
    pub(crate) fn revoke_sessions_of(&mut self, user: UserId, began_with: Option<LoginMethod>) {
        let ended: Vec<FamilyId> = self
            .families
            .iter()
            .filter(|(_, family)| family.user == user)
            .filter(|(_, family)| began_with.is_none() || family.began_with == began_with)
            .map(|(id, _)| *id)
            .collect();
        self.revoked.extend(ended);
    }
}
