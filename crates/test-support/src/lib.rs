//! Test-only support shared by the integration tests of every crate (a dev-dependency; the
//! benchmark uses it too): which external services the tests may use, a throwaway
//! PostgreSQL database per test, a TCP proxy that makes a service "go away" on demand, and
//! the service in a child process.

mod fault_proxy;
mod postgres;
mod process;
mod services;

pub use fault_proxy::{FaultProxy, MAX_PROXIED_CONNECTIONS};
pub use postgres::PostgresDatabase;
pub use process::{Launch, ServiceProcess};
pub use services::{postgres_admin_url, redis_url, skipped};
