//! Write plans: what a rule-bearing change writes, decided here once and handed to a store
//! as a value. A store reads what the decision needs, asks the rule for the plan, and
//! applies it in one transaction: the writes in order, then the events. No store composes
//! the writes of a rule itself, so PostgreSQL, SQLite and the in-memory fake cannot drift.

use crate::Scopes;
use crate::refresh::RefreshTokenHash;
use crate::session::{NewRefreshToken, SessionStart};
use crate::{
    AuditEvent, Email, EventSet, FamilyId, LinkedAccountId, LoginMethod, NewLinkedAccount,
    SealedToken, User, UserId,
};
use time::OffsetDateTime;

use crate::account::SealedTokens;

/// One write. Those that change a row read before ([`Write::RefreshLink`]) find it or the
/// plan fails as a conflict: the store's caller decides again on what is there now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// A conflict on a unique email fails the plan.
    InsertUser(User),
    /// A conflict on (provider, subject) or (user, provider) fails the plan.
    InsertLink(NewLinkedAccount),
    /// A returning login's tokens and email; the link must still be there and enabled.
    RefreshLink(LinkRefresh),
    /// Tokens a relay refresh obtained; the link must still hold the access token the
    /// refresh started from (else another writer got there first), and be enabled.
    RenewGrant(crate::relay::GrantRenewal),
    /// A relay refresh the provider refused: the link's tokens go and its refresh lease
    /// ends, only while it still holds the access token `seen` (else the plan fails as gone).
    ForgetRefusedGrant {
        link: LinkedAccountId,
        seen: SealedToken,
        at: OffsetDateTime,
    },
    DeleteLink(LinkedAccountId),
    /// The email, name and avatar the user's registering provider account gave go
    /// ([`crate::User::forget_profile`]).
    ForgetProfile(UserId),
    /// With its links, sessions and tokens (as the schema cascades).
    DeleteUser(UserId),
    SetLocked {
        user: UserId,
        locked: bool,
    },
    /// Revokes the live sessions of `user` that `began_with` began, or all of them.
    RevokeSessions {
        user: UserId,
        began_with: Option<LoginMethod>,
    },
    /// The link stays; its provider tokens go.
    ForgetTokens {
        link: LinkedAccountId,
        at: OffsetDateTime,
    },
    /// The provider reported the account disabled (or enabled again) at `at`.
    SetDisabled {
        link: LinkedAccountId,
        disabled: bool,
        at: OffsetDateTime,
    },
    /// A new session (refresh-token family) with its first token.
    StartSession {
        session: SessionStart,
        first: NewRefreshToken,
    },
    /// A rotated refresh token of the earlier format: presenting it again is reuse.
    MarkTokenUsed(RefreshTokenHash),
    /// A rotated refresh token that proves its family: its row goes, and presenting it
    /// again is reuse all the same (see [`crate::refresh::RefreshRecord::row_gone`]).
    DeleteToken(RefreshTokenHash),
    /// A rotation's successor, in its family.
    InsertToken(NewRefreshToken),
    /// Ends a session: none of its tokens works again.
    RevokeFamily(FamilyId),
}

impl Write {
    /// The write that starts `session` for `user` at `now`, with its first token.
    pub fn start_session(session: &SessionStart, user: UserId, now: OffsetDateTime) -> Self {
        let first = NewRefreshToken {
            hash: session.hash,
            user_id: user,
            family: session.family,
            created_at: now,
            expires_at: session.token_expires_at,
        };
        Self::StartSession {
            session: session.clone(),
            first,
        }
    }
}

/// A returning login's write to its link. A stored token is never replaced by none: the old
/// refresh token stays when none came (most providers send one only on the first consent),
/// and both stay after a native sign-in, which brings no token (they are what revokes the
/// grant on disconnect and deletion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRefresh {
    pub link: LinkedAccountId,
    /// The email as the provider sent it this time.
    pub email: Option<Email>,
    /// The new access token with the client it was issued to; `None` keeps the stored pair.
    pub access_token: Option<(SealedToken, Option<String>)>,
    /// `None` keeps the stored one.
    pub refresh_token: Option<SealedToken>,
    /// The scopes the new access token was granted; `None` keeps the stored ones (with the
    /// stored token).
    pub scopes: Option<Scopes>,
    /// When the new access token stops working (`None`: unknown); written only with one.
    pub access_expires_at: Option<OffsetDateTime>,
    pub at: OffsetDateTime,
}

impl LinkRefresh {
    /// `link`'s write for new `tokens` and the email as received: a login or connect that
    /// brought no access token (a native one without a code) keeps the stored tokens with
    /// their client and scopes, and one without a refresh token keeps the stored refresh
    /// token.
    pub fn with_tokens(
        link: LinkedAccountId,
        email: Option<Email>,
        tokens: SealedTokens,
        at: OffsetDateTime,
    ) -> Self {
        let new_token = !tokens.access_token.is_none();
        Self {
            link,
            email,
            access_token: new_token.then_some((tokens.access_token, tokens.client_id)),
            refresh_token: tokens.refresh_token,
            scopes: new_token.then_some(tokens.scopes),
            access_expires_at: tokens.access_expires_at.filter(|_| new_token),
            at,
        }
    }
}

/// What a decided change writes, in order, and the events it records (each queued for the
/// webhooks when `outbox` holds its type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WritePlan {
    pub writes: Vec<Write>,
    pub events: Vec<AuditEvent>,
    pub outbox: EventSet,
}

impl WritePlan {
    pub fn new(outbox: EventSet) -> Self {
        Self {
            writes: Vec::with_capacity(3),
            events: Vec::with_capacity(2),
            outbox,
        }
    }

    pub fn write(&mut self, write: Write) -> &mut Self {
        self.writes.push(write);
        self
    }

    pub fn record(&mut self, event: AuditEvent) -> &mut Self {
        self.events.push(event);
        self
    }
}

#[cfg(test)]
mod tests;
