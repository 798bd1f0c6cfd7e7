//! Contract suites: the rules a port promises, written once and run against the fakes of
//! this crate *and* every real adapter (SQLite, PostgreSQL, memory, Redis), so "the fake is
//! no laxer than the database" is a tested fact, not a hope.
//!
//! Each rule is a public async function taking a fresh adapter. A macro per port expands
//! to one `#[tokio::test]` per rule in the crate that uses it, handing each rule to a
//! harness that builds the adapter (or several, one after another):
//!
//! ```ignore
//! social_login_testing::repository_contract!(|rule| async move {
//!     rule(std::sync::Arc::new(social_login_testing::InMemoryRepository::default())).await
//! });
//! ```

pub mod repository;
pub mod state_store;
pub mod token_cipher;
