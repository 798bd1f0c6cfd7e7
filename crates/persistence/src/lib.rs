//! sea-orm adapter for the repository ports, on SQLite or PostgreSQL chosen by URL.
//!
//! [`SeaOrmRepository`] implements `UserRepository` and `RefreshTokenRepository`. Every
//! `DbErr` is translated here, at the seam, into the ports' typed errors.

mod audit;
mod connect;
mod entity;
mod error;
mod mapping;
mod migration_lock;
mod queries;
mod refresh_tokens;
mod repository;
mod seed;
mod sign_in;
mod users;

pub use connect::{DatabaseOptions, connect};
pub use migration_lock::MIGRATION_LOCK_KEY;
pub use repository::SeaOrmRepository;
pub use seed::seed_provider_users;
