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
pub mod names;
mod steps;

/// Re-exported so callers can run [`Migrator::up`] without naming sea-orm-migration.
pub use sea_orm_migration::MigratorTrait;

/// All migrations, in the order they apply.
pub struct Migrator;

/// Lists each migration in [`Migrator`], in order: `steps` for one written as
/// [`steps::Changes`] (its `down` undoes its steps), `written` for one that implements
/// `MigrationTrait` itself. (The modules are declared above, where rustfmt sees them.)
macro_rules! migrations {
    ($($kind:ident $module:ident,)+) => {
        #[async_trait::async_trait]
        impl MigratorTrait for Migrator {
            fn migrations() -> Vec<Box<dyn MigrationTrait>> {
                vec![$(migrations!(@$kind $module)),+]
            }
        }
    };
    (@steps $module:ident) => {
        Box::new(steps::Reversible($module::Migration))
    };
    (@written $module:ident) => {
        Box::new($module::Migration)
    };
}

migrations! {
    steps m20250101_000001_create_users,
    steps m20250101_000002_create_linked_accounts,
    steps m20250101_000003_create_refresh_tokens,
    steps m20261123_000004_create_refresh_families,
    steps m20261123_000005_release_unverified_emails,
    steps m20261123_000006_index_expiries,
    steps m20261123_000007_create_audit_events,
    steps m20261125_000008_family_auth_time,
    written m20261125_000009_ascii_email_keys,
    steps m20261125_000010_schedule_webhooks,
    steps m20261126_000011_provider_signals,
    steps m20261126_000012_operator_api,
    steps m20261126_000013_grant_client_id,
}
