//! The repository ports on SQLite or PostgreSQL, chosen by URL ([`open`]).
//!
//! [`SeaOrmRepository`] implements them on sea-orm (PostgreSQL, and SQLite for migrations
//! and tooling); [`SqliteRepository`] on rusqlite, which the service uses for SQLite files.
//! Every database error is translated here, at the seam, into the ports' typed errors.

mod admin;
mod audit;
mod connect;
mod database;
mod entity;
mod error;
mod held_connection;
mod mapping;
mod migration_lock;
mod outbox;
mod outbox_sql;
mod plan;
mod queries;
mod raw_sql;
mod refresh_tokens;
mod relay;
mod relay_sql;
mod repository;
mod rows;
mod seed;
mod sign_in;
mod signals;
mod sqlite;
#[cfg(test)]
mod test_postgres;
mod traced;
mod users;

pub use connect::{DatabaseOptions, POSTGRES_PING_IF_IDLE_FOR, connect};
pub use database::{Database, open};
pub use migration_lock::MIGRATION_LOCK_KEY;
pub use repository::SeaOrmRepository;
pub use seed::{seed_events, seed_provider_users};
pub use sqlite::SqliteRepository;
