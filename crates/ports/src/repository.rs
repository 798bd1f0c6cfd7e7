//! The repository ports: users, linked accounts and refresh tokens.
//!
//! Operations that must not interleave are single port calls that the adapter runs in one
//! transaction (creating a user with its first link, removing a link under the
//! last-login-method rule, rotating a refresh token). Unique constraints are the last line
//! against races, and their violations come back as the typed errors below.

use async_trait::async_trait;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::linking::EmailAlreadyRegistered;
use social_login_domain::sign_in::SignInRefused;
use social_login_domain::{
    AuditEvent, Email, EventSet, EventsView, LinkedAccount, ProviderAccount, ProviderKey,
    SealedToken, SignupRefused, User, UserEvents, UserId,
};
use time::OffsetDateTime;

pub use crate::repository_error::{PlanError, RepoResult, RepositoryError, Taken};
use social_login_domain::registration::ForeignFirstLink;
pub use social_login_domain::registration::{AccountLink, LinkRenewal, UserCreation};
pub use social_login_domain::removal::{LinkRemoval, Remover, UserDeletion};
pub use social_login_domain::sign_in::ProviderSignIn;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateUserError {
    /// Another user has this email (case-insensitive).
    #[error("email already taken")]
    EmailTaken,
    /// The first link's provider account is linked already.
    #[error("provider account already linked")]
    ProviderAccountTaken,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddLinkError {
    /// Unique (provider, subject) or unique (user, provider) was hit.
    #[error("provider already linked")]
    ProviderAlreadyLinked,
    #[error("user does not exist")]
    UserNotFound,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Who a provider login signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub user: User,
    /// True when this login registered the user.
    pub is_new_user: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignInError {
    /// The email belongs to a user this login may not be linked to (docs/api.md#linking-rules);
    /// it says who may confirm the link instead, when someone may.
    #[error(transparent)]
    EmailAlreadyRegistered(EmailAlreadyRegistered),
    /// A concurrent request won a unique constraint or removed the link: nothing was
    /// written; deciding again sees what it stored.
    #[error("raced with a concurrent login")]
    Raced,
    /// The provider account is linked, and its provider reported it disabled (a RISC
    /// `account-disabled` not yet followed by `account-enabled`): nothing was written.
    #[error("the provider account is disabled")]
    AccountDisabled,
    /// The login would register a new user, and the provider's sign-up policy refuses it:
    /// nothing was written.
    #[error(transparent)]
    SignupRefused(#[from] SignupRefused),
    /// The user this login would sign in is locked by an operator: nothing was written.
    #[error("the user is locked")]
    UserLocked,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl From<SignInRefused> for SignInError {
    fn from(refused: SignInRefused) -> Self {
        match refused {
            SignInRefused::EmailAlreadyRegistered(refused) => Self::EmailAlreadyRegistered(refused),
            SignInRefused::Signup(refused) => Self::SignupRefused(refused),
            SignInRefused::AccountDisabled => Self::AccountDisabled,
            SignInRefused::UserLocked => Self::UserLocked,
        }
    }
}

/// A plan that lost a unique constraint or a row it changes to a concurrent request is a
/// race: deciding again sees what that request stored.
impl From<PlanError> for SignInError {
    fn from(error: PlanError) -> Self {
        match error {
            PlanError::Taken(_) | PlanError::Gone | PlanError::Locked => Self::Raced,
            PlanError::Repository(error) => Self::Repository(error),
        }
    }
}

/// A removed link's provider tokens, still sealed: what revoking its grant needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedGrant {
    pub provider: ProviderKey,
    pub access_token: SealedToken,
    pub refresh_token: Option<SealedToken>,
    /// The client the grant was issued to, when not the provider's configured one.
    pub client_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoveLinkError {
    #[error(transparent)]
    Refused(#[from] DisconnectRefused),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl From<ForeignFirstLink> for CreateUserError {
    fn from(error: ForeignFirstLink) -> Self {
        Self::Repository(RepositoryError::Internal(error.to_string()))
    }
}

impl From<PlanError> for CreateUserError {
    fn from(error: PlanError) -> Self {
        match error {
            PlanError::Taken(Taken::Email) => Self::EmailTaken,
            PlanError::Taken(Taken::ProviderAccount) => Self::ProviderAccountTaken,
            other => Self::Repository(other.into()),
        }
    }
}

impl From<PlanError> for AddLinkError {
    fn from(error: PlanError) -> Self {
        match error {
            PlanError::Taken(Taken::ProviderAccount | Taken::UserProvider) => {
                Self::ProviderAlreadyLinked
            }
            PlanError::Gone => Self::UserNotFound,
            other => Self::Repository(other.into()),
        }
    }
}

impl From<PlanError> for RemoveLinkError {
    fn from(error: PlanError) -> Self {
        Self::Repository(error.into())
    }
}

/// Users and their linked accounts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UserRepository: Send + Sync {
    async fn find_user(&self, id: UserId) -> RepoResult<Option<User>>;

    /// Case-insensitive match on the normalised email.
    async fn find_user_by_email(&self, email: &Email) -> RepoResult<Option<User>>;

    async fn find_link(&self, account: &ProviderAccount) -> RepoResult<Option<LinkedAccount>>;

    /// The user's links, oldest first.
    async fn list_links(&self, user: UserId) -> RepoResult<Vec<LinkedAccount>>;

    /// Creates the user and, if given, its first link and its first session, in one
    /// transaction: all or nothing, with the `user.registered` event (and `user.login` for
    /// the session).
    async fn create_user(&self, creation: UserCreation) -> Result<User, CreateUserError>;

    /// Links a provider account to an existing user, with the `account.linked` event.
    async fn add_link(&self, link: AccountLink) -> Result<LinkedAccount, AddLinkError>;

    /// Stores new provider tokens (and the email as received) with a link its user connected
    /// again, with the `provider.token_refreshed` event. False when the link is gone, or its
    /// provider reported it disabled: nothing is written.
    async fn renew_link(&self, renewal: LinkRenewal) -> RepoResult<bool>;

    /// A provider login, decided and stored in one transaction (docs/api.md#linking-rules): looks the
    /// account and the email up, applies `domain::linking::decide_login`, then signs the
    /// linked user in (storing the new provider tokens and the email as received; a stored
    /// provider token is never replaced by none: the old refresh token is kept when none
    /// came, and both are kept when the login brought no token at all, as a native id_token
    /// sign-in does), links the account to the email's
    /// owner, or registers a new user with the link; and starts `session` for that user.
    /// A link its provider reported disabled signs nobody in (`AccountDisabled`).
    /// Nothing is written unless all of it is.
    async fn sign_in_with_provider(&self, sign_in: ProviderSignIn)
    -> Result<SignedIn, SignInError>;

    /// Removes the user's link of `provider` in one transaction that re-reads the user and
    /// all its links and applies `domain::disconnect::check_disconnect`, so two concurrent
    /// disconnects cannot leave a user with no way to log in. Records `account.unlinked`.
    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError>;

    /// Deletes the user with its links and sessions in one transaction that records
    /// `user.deleted`, and returns the links' sealed tokens for revocation; `None` when
    /// there is no such user (nothing is written).
    async fn delete_user(&self, deletion: UserDeletion) -> RepoResult<Option<Vec<SealedGrant>>>;

    /// Records an event that goes with no other write (a failed provider revocation), and
    /// queues it for the webhooks if `outbox` holds its type.
    async fn record_event(&self, event: AuditEvent, outbox: EventSet) -> RepoResult<()>;

    /// Housekeeping: deletes up to `limit` events that happened before `before`, except
    /// those the webhook outbox still holds; returns how many went (the caller repeats while
    /// it is `limit`).
    async fn prune_events(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64>;

    /// See [`UserEvents`].
    async fn events_of(&self, query: UserEvents) -> RepoResult<Vec<AuditEvent>>;

    /// All of the user's most recent events (an operator's view), newest first.
    async fn list_events(&self, user: UserId, limit: u64) -> RepoResult<Vec<AuditEvent>> {
        let view = EventsView::Operator;
        self.events_of(UserEvents { user, limit, view }).await
    }

    /// Cheap reachability check for `/readyz`.
    async fn ping(&self) -> RepoResult<()>;
}
