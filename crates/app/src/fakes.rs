//! Hand-written in-memory stand-ins for every port, so the use cases run without I/O.
//!
//! They keep the rules the real adapters keep (unique constraints, atomic spend, refresh
//! rotation with family revocation), because a fake that is laxer than the database
//! would let a use-case bug pass the tests.

mod cipher;
mod clock;
mod hasher;
mod provider;
mod refresh_tokens;
mod repository;
mod sessions;
mod states;
mod users;

pub use cipher::ReversingCipher;
pub use clock::FakeClock;
pub use hasher::FakeHasher;
pub use provider::{FakeProvider, state_in};
pub use repository::InMemoryRepository;
pub use sessions::FakeSessions;
pub use states::{FakeStateSealer, FakeStateStore};
