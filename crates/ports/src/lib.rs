//! Ports: the traits the use cases need from the outside world.
//!
//! Each trait is object-safe (`async_trait`, `Send` futures) because adapters are chosen at
//! run time from the configuration (SQLite or PostgreSQL, memory or Redis, eight providers
//! in one registry). Errors are typed per port; adapters translate their library errors at
//! the seam, so no `DbErr`, `reqwest::Error` or Redis error appears here.
//! With the `mock` feature every trait also has a mockall `Mock…` for failure injection.

pub mod admin;
pub mod clock;
pub mod identity_provider;
pub mod password_hasher;
pub mod randomness;
pub mod refresh_tokens;
pub mod relay;
pub mod repository;
pub mod repository_error;
pub mod session_tokens;
pub mod signals;
pub mod state_sealer;
pub mod state_store;
pub mod store;
pub mod token_cipher;
pub mod webhooks;

pub use admin::{
    AdminRepository, EventQuery, LockChange, OperatorUnlink, SessionsRevocation, Unlinked,
    UserPage, UserSearch,
};
pub use clock::{Clock, SystemClock};
pub use identity_provider::{
    ApiAnswer, ApiBody, ApiCall, AuthorizationRequest, CallbackInput, IdTokenInput,
    IdentityProvider, NativeCode, NativeExchange, PostBody, PresentedIdToken, ProviderError,
    ProviderGrant, ProviderInfo, ProviderLogin, RefreshFailure, Revoked,
};
pub use password_hasher::{HashError, PasswordHasher};
pub use randomness::Randomness;
pub use refresh_tokens::{
    Logout, NewRefreshToken, RefreshRotation, RefreshTokenRepository, RotateError, Rotated,
    RotationPlan, RotationRefused, SessionEnding, SessionOpening, SessionStart, SessionSummary,
    StoredSession,
};
pub use relay::{GrantLookup, LeaseRelease, LinkGrant, ProviderGrants, RefreshClaim};
pub use repository::{
    AccountLink, AddLinkError, CreateUserError, LinkRemoval, LinkRenewal, PlanError,
    ProviderSignIn, RemoveLinkError, Remover, RepoResult, RepositoryError, SealedGrant,
    SignInError, SignedIn, UserCreation, UserDeletion, UserRepository,
};
pub use session_tokens::{
    AccessIssue, AccessToken, IssuedRefreshToken, SessionTokenError, SessionTokens, VerifiedAccess,
};
pub use signals::{
    RefusalReason, SignalCommand, SignalError, SignalOutcome, SignalReceipt, SignalRefused,
    SignalRepository, SignalVerifier, VerifiedSignal,
};
pub use state_sealer::StateSealer;
pub use state_store::{AttemptKey, Attempts, StateStore, StateStoreError, StoreResult};
pub use store::Repository;
pub use token_cipher::{CipherError, TokenCipher};
pub use webhooks::{
    Claim, DeadLetter, DeliveryError, Failure, OutboxCounts, PendingDelivery, Sweep, WebhookOutbox,
    WebhookSender,
};

#[cfg(feature = "mock")]
pub use {
    admin::MockAdminRepository, clock::MockClock, identity_provider::MockIdentityProvider,
    password_hasher::MockPasswordHasher, randomness::MockRandomness,
    refresh_tokens::MockRefreshTokenRepository, relay::MockProviderGrants,
    repository::MockUserRepository, session_tokens::MockSessionTokens,
    signals::MockSignalRepository, signals::MockSignalVerifier, state_sealer::MockStateSealer,
    state_store::MockStateStore, token_cipher::MockTokenCipher, webhooks::MockWebhookOutbox,
    webhooks::MockWebhookSender,
};

/// The `tracing` target of the spans exported as traces (`[telemetry]`, docs/operations.md):
/// never logged, and made at all only while an exporter is installed. An adapter marks its
/// provider calls and database transactions with it; no field of such a span holds a token,
/// a code, an email or an IP address.
pub const TRACE_TARGET: &str = "social_login::trace";
