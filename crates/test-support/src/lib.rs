//! What the integration tests of several crates share: the switches for the PostgreSQL and
//! Redis they need (skipped loudly on a developer machine without them, failing under `CI`),
//! a fresh PostgreSQL database per test, and a TCP proxy that cuts a dependency off.

mod fault_proxy;
mod postgres;
mod services;

pub use fault_proxy::FaultProxy;
pub use postgres::PostgresDatabase;
pub use services::{postgres_admin_url, redis_url};
