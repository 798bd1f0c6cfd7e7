//! Database schema of social-login as sea-orm migrations, portable across SQLite and PostgreSQL.
//!
//! Unique constraints are created as named unique indexes, and the names are exported in
//! [`names`] so the persistence adapter can tell which constraint a violation hit.

use sea_orm_migration::prelude::*;

mod m20250101_000001_create_users;
mod m20250101_000002_create_linked_accounts;
mod m20250101_000003_create_refresh_tokens;
mod m20261123_000004_create_refresh_families;
mod m20261123_000005_release_unverified_emails;
mod m20261123_000006_index_expiries;
mod m20261123_000007_create_audit_events;
mod m20261125_000008_family_auth_time;
mod m20261125_000009_ascii_email_keys;
mod m20261125_000010_schedule_webhooks;
mod m20261126_000011_provider_signals;
mod m20261126_000012_operator_api;
mod m20261126_000013_grant_client_id;
mod m20261126_000014_drop_link_user_index;
mod m20261206_000015_link_scopes;
mod m20261206_000016_link_token_expiry;
mod m20261206_000017_event_via;
pub mod names;
mod steps;

/// Re-exported so callers can run [`Migrator::up`] without naming sea-orm-migration.
pub use sea_orm_migration::MigratorTrait;

/// All migrations, in the order they apply.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            reversible(m20250101_000001_create_users::Migration),
            reversible(m20250101_000002_create_linked_accounts::Migration),
            reversible(m20250101_000003_create_refresh_tokens::Migration),
            reversible(m20261123_000004_create_refresh_families::Migration),
            reversible(m20261123_000005_release_unverified_emails::Migration),
            reversible(m20261123_000006_index_expiries::Migration),
            reversible(m20261123_000007_create_audit_events::Migration),
            reversible(m20261125_000008_family_auth_time::Migration),
            // Rewrites rows in Rust: it implements `MigrationTrait` itself.
            Box::new(m20261125_000009_ascii_email_keys::Migration),
            reversible(m20261125_000010_schedule_webhooks::Migration),
            reversible(m20261126_000011_provider_signals::Migration),
            reversible(m20261126_000012_operator_api::Migration),
            reversible(m20261126_000013_grant_client_id::Migration),
            reversible(m20261126_000014_drop_link_user_index::Migration),
            reversible(m20261206_000015_link_scopes::Migration),
            reversible(m20261206_000016_link_token_expiry::Migration),
            reversible(m20261206_000017_event_via::Migration),
        ]
    }
}

/// A migration written as [`steps::Changes`]: its `down` undoes its steps.
fn reversible(migration: impl steps::Changes + 'static) -> Box<dyn MigrationTrait> {
    Box::new(steps::Reversible(migration))
}
