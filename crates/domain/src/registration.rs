//! A new user (a password registration, a user created with its first link) and a link a
//! signed-in user connects, as write plans (see [`crate::plan`]).

use crate::SealedTokens;
use crate::plan::{LinkRefresh, Write, WritePlan};
use crate::session::SessionStart;
use crate::{
    AuditContext, AuditEventType, Email, LinkedAccount, LinkedAccountId, NewLinkedAccount,
    ProviderKey, User, UserId,
};
use time::OffsetDateTime;

/// A user to create, with its first link if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserCreation {
    pub user: User,
    pub first_link: Option<NewLinkedAccount>,
    /// A registration's session, written with the user (it starts at the user's creation):
    /// the client gets the account with its session, or neither.
    pub first_session: Option<SessionStart>,
    /// Records `user.registered` (and `user.login` with a session).
    pub audit: AuditContext,
}

/// A first link that names another user: a caller's mistake the schema would refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the first link must belong to the new user")]
pub struct ForeignFirstLink;

impl UserCreation {
    /// The user, then its first link and its first session; records `user.registered`,
    /// then `user.login` for the session.
    pub fn plan(&self) -> Result<WritePlan, ForeignFirstLink> {
        let user = &self.user;
        if self
            .first_link
            .as_ref()
            .is_some_and(|link| link.user_id != user.id)
        {
            return Err(ForeignFirstLink);
        }
        let provider = self.first_link.as_ref().map(|link| link.provider);
        let mut writes = WritePlan::new(self.audit.outbox);
        writes.write(Write::InsertUser(user.clone()));
        if let Some(link) = &self.first_link {
            writes.write(Write::InsertLink(link.clone()));
        }
        let registered = AuditEventType::UserRegistered;
        writes.record(self.audit.event(0, registered, user.id, provider));
        if let Some(session) = &self.first_session {
            writes
                .write(Write::start_session(session, user.id, user.created_at))
                .record(
                    self.audit
                        .event(1, AuditEventType::UserLogin, user.id, None),
                );
        }
        Ok(writes)
    }
}

/// A provider account a signed-in user connects (`domain::linking::decide_connect` judged
/// it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountLink {
    pub link: NewLinkedAccount,
    /// Records `account.linked`.
    pub audit: AuditContext,
}

impl AccountLink {
    /// The link; records `account.linked`.
    pub fn plan(&self) -> WritePlan {
        let (link, linked) = (&self.link, AuditEventType::AccountLinked);
        let write = Write::InsertLink(link.clone());
        self.audit
            .plan(write, linked, link.user_id, Some(link.provider))
    }
}

/// New provider tokens for a link its user connected again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRenewal {
    pub user: UserId,
    pub provider: ProviderKey,
    pub link: LinkedAccountId,
    /// The email as the provider sent it this time.
    pub email: Option<Email>,
    pub tokens: SealedTokens,
    pub at: OffsetDateTime,
    /// Records `provider.token_refreshed`.
    pub audit: AuditContext,
}

impl LinkRenewal {
    /// The link's new tokens and email ([`LinkRefresh::with_tokens`]); records
    /// `provider.token_refreshed`.
    pub fn plan(&self) -> WritePlan {
        let refresh =
            LinkRefresh::with_tokens(self.link, self.email.clone(), self.tokens.clone(), self.at);
        let refreshed = AuditEventType::ProviderTokenRefreshed;
        let write = Write::RefreshLink(refresh);
        self.audit
            .plan(write, refreshed, self.user, Some(self.provider))
    }

    /// `link` as this renewal leaves it: the new email, and the new scopes when tokens came.
    pub fn renewed(self, link: LinkedAccount) -> LinkedAccount {
        let new_token = !self.tokens.access_token.is_none();
        LinkedAccount {
            email: self.email,
            scopes: if new_token {
                self.tokens.scopes
            } else {
                link.scopes
            },
            ..link
        }
    }
}
