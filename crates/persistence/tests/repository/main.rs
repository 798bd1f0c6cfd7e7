//! Integration tests of `SeaOrmRepository` and `SqliteRepository`: every test runs against a
//! real SQLite file (so WAL is real) and, when `TEST_POSTGRES_URL` is set, against a fresh
//! PostgreSQL database.

mod contract;
mod cross_adapter;
mod database;
mod file_modes;
mod fixtures;
mod harness;
mod migration_lock;
mod migrations;
mod postgres;
mod refresh_rows;
mod sqlite;
