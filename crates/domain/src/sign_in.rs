//! A provider login as a write plan: what the store read goes in, the rules
//! ([`crate::linking`], the sign-up policy, the operator's lock, the provider's report of a
//! disabled account) decide, and what to write comes out.

use crate::SealedTokens;
use crate::admin::{UserLocked, check_not_locked};
use crate::audit::sign_in_events;
use crate::linking::{
    EmailAlreadyRegistered, EmailOwner, Linking, LoginDecision, LoginRefused, decide_sign_in,
};
use crate::plan::{LinkRefresh, Write, WritePlan};
use crate::session::SessionStart;
use crate::{
    AuditContext, Email, LinkedAccount, LinkedAccountId, NewLinkedAccount, ProviderIdentity,
    SignupPolicy, SignupRefused, User, UserId,
};
use time::OffsetDateTime;

/// A provider login to decide and store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSignIn {
    pub identity: ProviderIdentity,
    /// The provider's tokens, sealed, with their scopes, expiry and the client they were
    /// issued to when not the provider's configured one (an Apple grant an app exchanged:
    /// its bundle id). [`SealedTokens::none`] for a login that brought none.
    pub tokens: SealedTokens,
    /// docs/api.md#linking-rules: how this provider's login may join the owner of its
    /// verified email.
    pub linking: Linking,
    /// Whether this provider's account may become a new user, decided in the same
    /// transaction as the rest.
    pub signup: SignupPolicy,
    /// Ids for the user and the link, used only if the decision creates them.
    pub new_user_id: UserId,
    pub new_link_id: LinkedAccountId,
    /// The session the login starts, for whichever user it turns out to be.
    pub session: SessionStart,
    pub now: OffsetDateTime,
    /// Records the login (and the registration or link it decided on).
    pub audit: AuditContext,
}

/// The link of the login's provider account as stored, with its user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLink {
    pub link: LinkedAccount,
    pub user: User,
}

/// What a login's transaction read: the link of its provider account, else the user who
/// claims its email with that user's links (read only when there is no link).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignInRead {
    pub linked: Option<StoredLink>,
    pub email_owner: Option<(User, Vec<LinkedAccount>)>,
}

/// Who a login signs in, and what it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInPlan {
    pub user: User,
    /// True when this login registers the user.
    pub is_new_user: bool,
    pub writes: WritePlan,
}

/// A login the rules refuse: nothing is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignInRefused {
    /// The email belongs to a user this login may not be linked to (now: who may confirm
    /// it is said).
    #[error(transparent)]
    EmailAlreadyRegistered(EmailAlreadyRegistered),
    #[error(transparent)]
    Signup(#[from] SignupRefused),
    /// The provider reported the linked account disabled.
    #[error("the provider account is disabled")]
    AccountDisabled,
    #[error("the user is locked")]
    UserLocked,
}

impl From<LoginRefused> for SignInRefused {
    fn from(refused: LoginRefused) -> Self {
        match refused {
            LoginRefused::EmailAlreadyRegistered(refused) => Self::EmailAlreadyRegistered(refused),
            LoginRefused::Signup(refused) => Self::Signup(refused),
        }
    }
}

impl From<UserLocked> for SignInRefused {
    fn from(_: UserLocked) -> Self {
        Self::UserLocked
    }
}

impl ProviderSignIn {
    /// The email whose owner the decision needs, given the link read: none when the
    /// account is linked (the link decides) or the provider sent no email.
    pub fn email_to_look_up(&self, linked: Option<&StoredLink>) -> Option<&Email> {
        match linked {
            None => self.identity.email.as_ref(),
            Some(_) => None,
        }
    }

    /// Decides the login on what the transaction read (docs/api.md#linking-rules): sign the
    /// linked user in, refreshing the link's tokens and email; link the account to the
    /// email's owner; or register a new user with the link. Then the session starts for that
    /// user and the events are recorded.
    pub fn plan(&self, read: SignInRead) -> Result<SignInPlan, SignInRefused> {
        if read
            .linked
            .as_ref()
            .is_some_and(|stored| stored.link.disabled)
        {
            return Err(SignInRefused::AccountDisabled);
        }
        let decision = decide_sign_in(
            &self.identity,
            read.linked.as_ref().map(|stored| &stored.link),
            read.email_owner
                .as_ref()
                .map(|(user, links)| EmailOwner { user, links }),
            self.linking,
            &self.signup,
        )?;
        let mut writes = WritePlan::new(self.audit.outbox);
        let (user, is_new_user) = match (read.linked, read.email_owner) {
            (Some(stored), _) if matches!(decision, LoginDecision::SignIn { .. }) => {
                check_not_locked(&stored.user)?;
                writes.write(Write::RefreshLink(self.link_refresh(stored.link.id)));
                (stored.user, false)
            }
            (_, Some((owner, _))) if matches!(decision, LoginDecision::LinkThenSignIn { .. }) => {
                check_not_locked(&owner)?;
                writes.write(Write::InsertLink(self.new_link(owner.id)));
                (owner, false)
            }
            // `decide_sign_in` signs in only a stored link and links only to an email's
            // owner: what is left is a registration.
            _ => {
                let user = self.new_user();
                writes.write(Write::InsertUser(user.clone()));
                writes.write(Write::InsertLink(self.new_link(user.id)));
                (user, true)
            }
        };
        writes.write(Write::start_session(&self.session, user.id, self.now));
        let provider = Some(self.identity.provider);
        for (index, kind) in sign_in_events(&decision).iter().enumerate() {
            writes.record(self.audit.event(index, *kind, user.id, provider));
        }
        Ok(SignInPlan {
            user,
            is_new_user,
            writes,
        })
    }

    /// The user this login registers, when it registers one.
    pub fn new_user(&self) -> User {
        let identity = &self.identity;
        User {
            id: self.new_user_id,
            email: identity.email.clone(),
            full_name: identity.full_name.clone(),
            avatar_url: identity.avatar_url.clone(),
            email_verified: identity.verified_email().is_some(),
            password_hash: None,
            created_at: self.now,
            locked: false,
        }
    }

    /// The link of this login's provider account to `user`, when it links or registers.
    pub fn new_link(&self, user: UserId) -> NewLinkedAccount {
        let identity = &self.identity;
        NewLinkedAccount {
            id: self.new_link_id,
            user_id: user,
            provider: identity.provider,
            subject: identity.subject.clone(),
            email: identity.email.clone(),
            tokens: self.tokens.clone(),
            created_at: self.now,
        }
    }

    /// A returning login's write to `link` (see [`LinkRefresh::with_tokens`]).
    fn link_refresh(&self, link: LinkedAccountId) -> LinkRefresh {
        let tokens = self.tokens.clone();
        LinkRefresh::with_tokens(link, self.identity.email.clone(), tokens, self.now)
    }
}
