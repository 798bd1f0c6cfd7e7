//! The one error type of the use cases, one variant per client-visible code.

use social_login_domain::state::StateMismatch;
use social_login_domain::{ErrorCode, SignupRefused};
use social_login_ports::{
    AddLinkError, CipherError, HashError, ProviderError, RepositoryError, SessionTokenError,
    SignalError, SignalRefused, StateStoreError,
};
use std::sync::Arc;

/// A failed use case. `code()` is the stable name the client sees; the `String`s carried by
/// the 5xx variants are causes for the log, never sent.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppError {
    #[error("provider is not configured")]
    ProviderNotConfigured,
    #[error("state mismatch: {0}")]
    StateMismatch(StateMismatch),
    #[error("code exchange failed: {0}")]
    CodeExchangeFailed(String),
    #[error("user info failed: {0}")]
    UserInfoFailed(String),
    #[error("provider offers no sign-in with an id_token")]
    IdTokenNotSupported,
    #[error("email already registered")]
    EmailAlreadyRegistered,
    /// The same 409, offering the owner of the email a link token to finish the link by
    /// signing in (docs/api.md#finishing-a-link). The token is for the client only.
    #[error("email already registered; a link is offered")]
    LinkOffered {
        #[debug(skip)]
        link_token: String,
    },
    /// A link token that does not open, expired, or was already used (400).
    #[error("invalid link token")]
    InvalidLinkToken,
    /// A link token presented by another user than the one it was offered to (403).
    #[error("the link token is for another user")]
    LinkTokenNotForYou,
    #[error("provider already linked")]
    ProviderAlreadyLinked,
    #[error("linked account not found")]
    AccountNotFound,
    #[error("last login method")]
    LastLoginMethod,
    /// An operator's unlink of the user's last way to log in, without `force`: the request
    /// conflicts with the account's state (the user's own disconnect is refused as a bad
    /// request, [`Self::LastLoginMethod`]).
    #[error("last login method; only a forced unlink removes it")]
    LastLoginMethodNeedsForce,
    #[error("unauthorized")]
    Unauthorized,
    #[error("invalid credentials")]
    InvalidCredentials,
    #[error("a recent login is required")]
    ReauthenticationRequired,
    /// A provider signal that did not verify; the reason and the failed check are safe to
    /// show (they never repeat the signal).
    #[error("invalid signal: {0}")]
    InvalidSignal(SignalRefused),
    /// The provider reported this account disabled (RISC `account-disabled`).
    #[error("the provider account is disabled")]
    ProviderAccountDisabled,
    /// The sign-up policy refuses this registration (`allow_signup = false`, or
    /// `[signup] password = false`).
    #[error("sign-up is not allowed")]
    SignupNotAllowed,
    /// The provider's `allowed_email_domains` do not include this person's verified email
    /// (or Google's hosted domain).
    #[error("the email domain is not allowed to sign up")]
    EmailDomainNotAllowed,
    /// An operator locked the user (403).
    #[error("the user is locked")]
    UserLocked,
    /// No user has this id (an operator's request).
    #[error("no such user")]
    UserNotFound,
    /// No live session of the caller has this id (404).
    #[error("no such session")]
    SessionNotFound,
    /// Too many attempts for one account; may be retried after this many seconds.
    #[error("too many attempts; retry in {retry_after_seconds} s")]
    RateLimited { retry_after_seconds: u64 },
    /// The relay is off, or this provider has no API base (404).
    #[error("no relay for this provider")]
    RelayNotOffered,
    /// A relayed call's grant is dead: the user must connect `provider` again.
    #[error("the provider must be connected again")]
    ProviderReauthorizationRequired {
        provider: social_login_domain::ProviderKey,
    },
    /// A relayed call could not reach the provider (502); the cause is for the log.
    #[error("provider API unavailable: {0}")]
    ProviderUnavailable(String),
    /// Bad input; the message is safe to show and names the field.
    #[error("{0}")]
    Validation(String),
    #[error("dependency unavailable")]
    Unavailable(#[source] Cause),
    #[error("internal error")]
    Internal(#[source] Cause),
}

/// What a use case answers.
pub type AppResult<T> = Result<T, AppError>;

/// Why a use case failed with a 5xx, for the log only: the failing error as it came, with
/// its own sources, so the log shows the whole chain (never sent to a client). Compared by
/// its text, so tests can say which failure they expect.
#[derive(Clone)]
pub struct Cause(Arc<dyn std::error::Error + Send + Sync>);

impl Cause {
    pub fn of(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Arc::new(error))
    }
}

/// A cause known only by its words (a rule of this service, not a failing dependency).
impl From<&str> for Cause {
    fn from(text: &str) -> Self {
        Self::from(text.to_owned())
    }
}

impl From<String> for Cause {
    fn from(text: String) -> Self {
        Self(Arc::from(Box::<dyn std::error::Error + Send + Sync>::from(
            text,
        )))
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Debug for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for Cause {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for Cause {}

impl AppError {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::ProviderNotConfigured => ErrorCode::OAuthProviderNotConfigured,
            Self::StateMismatch(_) => ErrorCode::OAuthStateMismatch,
            Self::CodeExchangeFailed(_) => ErrorCode::OAuthCodeExchangeFailed,
            Self::UserInfoFailed(_) => ErrorCode::OAuthUserInfoFailed,
            Self::IdTokenNotSupported => ErrorCode::IdTokenNotSupported,
            Self::EmailAlreadyRegistered | Self::LinkOffered { .. } => {
                ErrorCode::EmailAlreadyRegistered
            }
            Self::InvalidLinkToken => ErrorCode::InvalidLinkToken,
            Self::LinkTokenNotForYou => ErrorCode::LinkTokenNotForYou,
            Self::ProviderAlreadyLinked => ErrorCode::ProviderAlreadyLinked,
            Self::AccountNotFound => ErrorCode::OAuthAccountNotFound,
            Self::LastLoginMethod | Self::LastLoginMethodNeedsForce => ErrorCode::LastLoginMethod,
            Self::Unauthorized => ErrorCode::Unauthorized,
            Self::InvalidCredentials => ErrorCode::InvalidCredentials,
            Self::ReauthenticationRequired => ErrorCode::ReauthenticationRequired,
            Self::InvalidSignal(_) => ErrorCode::InvalidSignal,
            Self::ProviderAccountDisabled => ErrorCode::ProviderAccountDisabled,
            Self::SignupNotAllowed => ErrorCode::SignupNotAllowed,
            Self::EmailDomainNotAllowed => ErrorCode::EmailDomainNotAllowed,
            Self::UserLocked => ErrorCode::UserLocked,
            Self::UserNotFound | Self::SessionNotFound => ErrorCode::NotFound,
            Self::RateLimited { .. } => ErrorCode::RateLimited,
            Self::ProviderReauthorizationRequired { .. } => {
                ErrorCode::ProviderReauthorizationRequired
            }
            Self::ProviderUnavailable(_) => ErrorCode::ProviderUnavailable,
            Self::RelayNotOffered => ErrorCode::NotFound,
            Self::Validation(_) => ErrorCode::ValidationError,
            Self::Unavailable(_) => ErrorCode::ServiceUnavailable,
            Self::Internal(_) => ErrorCode::InternalError,
        }
    }
}

impl From<StateMismatch> for AppError {
    fn from(reason: StateMismatch) -> Self {
        Self::StateMismatch(reason)
    }
}

impl From<SignupRefused> for AppError {
    fn from(refused: SignupRefused) -> Self {
        match refused {
            SignupRefused::NotAllowed => Self::SignupNotAllowed,
            SignupRefused::EmailDomainNotAllowed => Self::EmailDomainNotAllowed,
        }
    }
}

impl From<SignalError> for AppError {
    fn from(error: SignalError) -> Self {
        match error {
            SignalError::Refused(refused) => Self::InvalidSignal(refused),
            // Ours, not the signal's: 503, and the provider sends it again.
            unchecked @ SignalError::KeysUnavailable(_) => Self::Unavailable(Cause::of(unchecked)),
        }
    }
}

impl From<ProviderError> for AppError {
    fn from(error: ProviderError) -> Self {
        match error {
            ProviderError::CodeExchange(why) => Self::CodeExchangeFailed(why),
            ProviderError::UserInfo(why) => Self::UserInfoFailed(why),
            // Never answered to a client (revocation is best effort); here for completeness.
            ProviderError::Revocation(why) => Self::UserInfoFailed(why),
            ProviderError::IdTokenNotSupported => Self::IdTokenNotSupported,
            ProviderError::Unavailable(_) => Self::Unavailable(Cause::of(error)),
            ProviderError::ApiCall(why) => Self::ProviderUnavailable(why),
        }
    }
}

/// A link a connect or a completed link offer could not store: the provider account was
/// linked meanwhile (409), or the caller's user is gone (its token no longer names anyone).
impl From<AddLinkError> for AppError {
    fn from(error: AddLinkError) -> Self {
        match error {
            AddLinkError::ProviderAlreadyLinked => Self::ProviderAlreadyLinked,
            AddLinkError::UserNotFound => Self::Unauthorized,
            AddLinkError::Repository(error) => error.into(),
        }
    }
}

impl From<RepositoryError> for AppError {
    fn from(error: RepositoryError) -> Self {
        match error {
            RepositoryError::Unavailable(_) => Self::Unavailable(Cause::of(error)),
            RepositoryError::Internal(_) => Self::Internal(Cause::of(error)),
        }
    }
}

impl From<StateStoreError> for AppError {
    fn from(error: StateStoreError) -> Self {
        Self::Unavailable(Cause::of(error))
    }
}

impl From<CipherError> for AppError {
    fn from(error: CipherError) -> Self {
        Self::Internal(Cause::of(error))
    }
}

impl From<HashError> for AppError {
    fn from(error: HashError) -> Self {
        match error {
            HashError::Busy => Self::Unavailable(Cause::of(error)),
            HashError::Failed(_) => Self::Internal(Cause::of(error)),
        }
    }
}

impl From<SessionTokenError> for AppError {
    fn from(error: SessionTokenError) -> Self {
        Self::Internal(Cause::of(error))
    }
}
