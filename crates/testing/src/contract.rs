//! Contract suites: the rules a port promises, written once and run against the fakes of
//! this crate *and* every real adapter (SQLite, PostgreSQL, memory, Redis), so "the fake is
//! no laxer than the database" is a tested fact, not a hope.
//!
//! Each rule is a public async function taking a fresh adapter. A macro per port expands
//! to one `#[tokio::test]` per rule in the crate that uses it, handing each rule to a
//! harness (an async function of the caller's) that builds the adapter, or several one
//! after another. `tests/contract.rs` of this crate runs them on the fakes:
//!
//! ```text
//! async fn on_the_in_memory_repository(rule: contract::repository::Rule) {
//!     rule(Arc::new(InMemoryRepository::default())).await;
//! }
//! social_login_testing::repository_contract!(on_the_in_memory_repository);
//! ```
//!
//! The sealing ports' rules are plain functions: `token_cipher::token_cipher_holds_its_contract`
//! and `token_cipher::state_sealer_holds_its_contract`.

pub mod repository;
pub mod state_store;
pub mod token_cipher;
