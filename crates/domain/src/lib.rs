//! Domain of social-login: the entities, newtypes and rules, free of I/O and frameworks.
//!
//! Everything here takes `now` as an argument and never reads a clock, a socket or a file,
//! so the rules are unit-tested exhaustively and reused unchanged by every adapter.

pub mod account;
pub mod admin;
pub mod audit;
pub mod code;
pub mod disconnect;
pub mod email;
pub mod error;
pub mod identity;
pub mod ids;
pub mod linking;
mod named;
pub mod password;
pub mod provider;
pub mod reauthentication;
pub mod refresh;
pub mod secret;
pub mod session;
pub mod signal;
pub mod signup;
pub mod state;
pub mod user;

#[cfg(test)]
mod test_fixtures;

pub use account::{LinkedAccount, NewLinkedAccount, ProviderTokens, SealedToken};
pub use admin::{AdminKeyId, PageLimit, UserFilter};
pub use audit::{AuditContext, AuditEvent, AuditEventId, AuditEventType, EventSet, Origin};
pub use code::{AuthorizationCode, InvalidCode};
pub use email::Email;
pub use error::ErrorCode;
pub use identity::{PersonName, ProviderIdentity, ProviderSubject};
pub use ids::{FamilyId, LinkedAccountId, UserId};
pub use provider::{InvalidProviderKey, ProviderKey, ProviderKind, UnknownKind};
pub use secret::SecretText;
pub use session::LoginMethod;
pub use signal::{SignalAction, SignalId, SignalKind, SignalSource};
pub use signup::{EmailDomain, SignupPolicy, SignupRefused};
pub use state::{
    Flow, MalformedState, OAuthState, Purpose, RedeemedState, Spend, StateId, StateMismatch,
    StateToken,
};
pub use user::{NewUser, PasswordHash, User};
