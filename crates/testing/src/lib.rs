//! In-memory stand-ins for every port of `social-login-ports`, so the use cases of
//! `social-login-app` run without a database, a network, a clock or randomness. Other teams
//! use them to test code built on the use cases, or to embed the service with some real
//! adapters and some of these.
//!
//! They keep the rules the real adapters keep (unique constraints, atomic single use,
//! refresh rotation with family revocation, the linking decision inside the login's one
//! step), because a fake laxer than the database would let a bug pass the tests. The
//! repository contract suites run each rule against these and the real adapters alike.
//!
//! | port | fake |
//! |---|---|
//! | `UserRepository`, `RefreshTokenRepository`, `SignalRepository` | [`InMemoryRepository`] (one store, as one database) |
//! | `StateSealer` | [`FakeStateSealer`] |
//! | `StateStore` | [`FakeStateStore`] |
//! | `IdentityProvider` | [`FakeProvider`] |
//! | `SignalVerifier` | [`FakeSignalVerifier`] |
//! | `TokenCipher` | [`ReversingCipher`] |
//! | `PasswordHasher` | [`FakeHasher`] |
//! | `SessionTokens` | [`FakeSessions`] |
//! | `Clock` | [`FakeClock`] |
//! | `Randomness` | [`SeededRandomness`] |

pub mod contract;

mod admin;
mod cipher;
mod clock;
mod hasher;
mod outbox;
mod plan;
mod provider;
mod randomness;
mod refresh_tokens;
mod relay;
mod repository;
mod sessions;
mod signal_verifier;
mod signals;
mod states;
mod users;

pub use cipher::ReversingCipher;
pub use clock::FakeClock;
pub use hasher::FakeHasher;
pub use provider::{FAKE_CLIENT_ID, FakeProvider, state_in};
pub use randomness::SeededRandomness;
pub use repository::InMemoryRepository;
pub use sessions::{ACCESS_TTL, FakeSessions, REFRESH_TTL};
pub use signal_verifier::FakeSignalVerifier;
pub use states::{FakeStateSealer, FakeStateStore};

/// An audit context for a write no request made (tests, tools): no origin, fresh ids, the
/// wall clock's time, nothing queued for webhooks.
pub fn audit_now() -> social_login_domain::AuditContext {
    audit_at(
        time::OffsetDateTime::now_utc(),
        social_login_domain::EventSet::NONE,
    )
}

/// An audit context at `at` queueing `outbox`'s types, with fresh ids in time order.
pub fn audit_at(
    at: time::OffsetDateTime,
    outbox: social_login_domain::EventSet,
) -> social_login_domain::AuditContext {
    let random = || {
        uuid::Uuid::new_v4().as_bytes()[..8]
            .try_into()
            .unwrap_or([0; 8])
    };
    social_login_domain::AuditContext {
        origin: social_login_domain::Origin::default(),
        at,
        ids: social_login_domain::AuditContext::ids_at(at, random),
        outbox,
    }
}
