//! Test-only support shared by the integration tests of every crate (a dev-dependency only):
//! which external services the tests may use, a throwaway PostgreSQL database per test, and
//! a TCP proxy that makes a service "go away" on demand.

mod fault_proxy;
mod postgres;
mod services;

pub use fault_proxy::{FaultProxy, MAX_PROXIED_CONNECTIONS};
pub use postgres::PostgresDatabase;
pub use services::{postgres_admin_url, redis_url, skipped};
