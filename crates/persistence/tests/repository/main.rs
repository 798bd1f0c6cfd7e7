//! Integration tests of `SeaOrmRepository`: every test runs against a real SQLite file (so WAL
//! is real) and, when `TEST_POSTGRES_URL` is set, against a fresh PostgreSQL database.

mod disconnect;
mod fixtures;
mod harness;
mod links;
mod migration_lock;
mod postgres;
mod refresh;
mod sign_in;
mod sqlite;
mod users;
