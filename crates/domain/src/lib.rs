//! Domain of social-login: the entities, newtypes and rules, free of I/O and frameworks.
//!
//! Everything here takes `now` as an argument and never reads a clock, a socket or a file,
//! so the rules are unit-tested exhaustively and reused unchanged by every adapter.

/// `Debug` for values that must stay out of logs (secrets, personal data): it prints the
/// type's name only, `Type([redacted])`.
macro_rules! redacted_debug {
    ($type:ident) => {
        impl std::fmt::Debug for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($type), "([redacted])"))
            }
        }
    };
}

pub mod account;
pub mod admin;
pub mod audit;
pub mod code;
pub mod disconnect;
pub mod email;
pub mod error;
pub mod event_query;
pub mod identity;
pub mod ids;
pub mod link_offer;
pub mod linking;
mod named;
pub mod page_limit;
pub mod password;
pub mod plan;
pub mod provider;
pub mod reauthentication;
pub mod refresh;
pub mod registration;
pub mod relay;
pub mod removal;
pub mod secret;
pub mod session;
pub mod session_list;
pub mod session_plan;
pub mod sign_in;
pub mod signal;
pub mod signal_plan;
pub mod signup;
pub mod state;
pub mod throttle;
pub mod user;

#[cfg(any(test, feature = "fixtures"))]
pub mod test_fixtures;

pub use account::{
    LinkedAccount, NewLinkedAccount, ProviderTokens, Scopes, SealedToken, SealedTokens,
};
pub use admin::{AdminKeyId, PageLimit, UserFilter};
pub use audit::{
    AuditContext, AuditEvent, AuditEventId, AuditEventType, EventSet, EventsView, Origin,
    UserEvents, Via,
};
pub use code::{AuthorizationCode, InvalidCode};
pub use email::Email;
pub use error::ErrorCode;
pub use identity::{PersonName, ProviderAccount, ProviderIdentity, ProviderSubject};
pub use ids::{FamilyId, LinkedAccountId, UserId};
pub use provider::{InvalidProviderKey, ProviderKey, ProviderKind, UnknownKind};
pub use secret::SecretText;
pub use session::LoginMethod;
pub use signal::{SignalAction, SignalId, SignalKind, SignalSource};
pub use signup::{EmailDomain, SignupPolicy, SignupRefused};
pub use state::{
    Flow, MalformedState, OAuthState, Purpose, RedeemedState, Spend, StateBinding, StateId,
    StateMismatch, StateToken,
};
pub use user::{BadGivenName, PasswordHash, User, given_name};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redacted_value_prints_its_type_and_nothing_of_itself() {
        let hash = PasswordHash::new("$argon2id$v=19$secret");
        assert_eq!(format!("{hash:?}"), "PasswordHash([redacted])");
        let email = Email::parse("ada@example.com").unwrap();
        assert_eq!(format!("{:?}", Some(email)), "Some(Email([redacted]))");
    }
}
