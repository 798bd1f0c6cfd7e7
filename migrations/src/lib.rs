//! Database schema of social-login as sea-orm migrations, portable across SQLite and PostgreSQL.
//!
//! Unique constraints are created as named unique indexes, and the names are exported in
//! [`names`] so the persistence adapter can tell which constraint a violation hit.

use sea_orm_migration::prelude::*;

pub mod names;
mod steps;

/// Re-exported so callers can run [`Migrator::up`] without naming sea-orm-migration.
pub use sea_orm_migration::MigratorTrait;

/// Declares each migration's module and lists it in [`Migrator`], so that a migration is
/// named once. An entry is `module: wrapper`; the wrapper boxes the module's `Migration`.
macro_rules! migrations {
    ($($module:ident: $boxed:path),* $(,)?) => {
        $(mod $module;)*

        /// All migrations, in the order they apply.
        pub struct Migrator;

        #[async_trait::async_trait]
        impl MigratorTrait for Migrator {
            fn migrations() -> Vec<Box<dyn MigrationTrait>> {
                vec![$($boxed($module::Migration)),*]
            }
        }
    };
}

migrations! {
    m20250101_000001_create_users: reversible,
    m20250101_000002_create_linked_accounts: reversible,
    m20250101_000003_create_refresh_tokens: reversible,
    m20261123_000004_create_refresh_families: reversible,
    m20261123_000005_release_unverified_emails: reversible,
    m20261123_000006_index_expiries: reversible,
    m20261123_000007_create_audit_events: reversible,
    m20261125_000008_family_auth_time: reversible,
    // Rewrites rows in Rust: it implements `MigrationTrait` itself.
    m20261125_000009_ascii_email_keys: Box::new,
    m20261125_000010_schedule_webhooks: reversible,
    m20261126_000011_provider_signals: reversible,
    m20261126_000012_operator_api: reversible,
    m20261126_000013_grant_client_id: reversible,
    m20261126_000014_drop_link_user_index: reversible,
    m20261206_000015_link_scopes: reversible,
    m20261206_000016_link_token_expiry: reversible,
    m20261206_000017_event_via: reversible,
}

/// A migration written as [`steps::Changes`]: its `down` undoes its steps.
fn reversible(migration: impl steps::Changes + 'static) -> Box<dyn MigrationTrait> {
    Box::new(steps::Reversible(migration))
}
