//! sea-orm adapter for the repository ports, on SQLite or PostgreSQL chosen by URL.
//!
//! [`SeaOrmRepository`] implements `UserRepository` and `RefreshTokenRepository`. Every
//! `DbErr` is translated here, at the seam, into the ports' typed errors.

mod connect;
mod entity;
mod error;
mod mapping;
mod refresh_tokens;
mod repository;
mod users;

pub use connect::connect;
pub use repository::SeaOrmRepository;
