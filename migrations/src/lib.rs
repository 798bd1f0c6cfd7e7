//! Database schema of social-login as sea-orm migrations, portable across SQLite and PostgreSQL.
//!
//! Unique constraints are created as named unique indexes, and the names are exported in
//! [`names`] so the persistence adapter can tell which constraint a violation hit.

use sea_orm_migration::prelude::*;

mod apply;
pub mod names;
mod steps;
mod tables;

pub use apply::{Recorded, apply_pending};

/// Re-exported so callers can run [`Migrator::up`] without naming sea-orm-migration.
pub use sea_orm_migration::MigratorTrait;

/// Declares each migration's module and lists it in [`Migrator`], so that a migration is
/// named once. An entry is `module: steps` for a migration written as [`steps::Steps`] (its
/// module's `steps` function), or `module: own` for one that implements `MigrationTrait`
/// itself (its module's `Migration`).
macro_rules! migrations {
    ($($module:ident: $kind:ident),* $(,)?) => {
        $(mod $module;)*

        /// All migrations, in the order they apply.
        pub struct Migrator;

        #[async_trait::async_trait]
        impl MigratorTrait for Migrator {
            fn migrations() -> Vec<Box<dyn MigrationTrait>> {
                vec![$(migration!($kind, $module)),*]
            }
        }
    };
}

/// One entry of [`migrations!`], boxed.
macro_rules! migration {
    (steps, $module:ident) => {
        Box::new(steps::Reversible {
            name: stringify!($module),
            steps: $module::steps,
        })
    };
    (own, $module:ident) => {
        Box::new($module::Migration)
    };
}

migrations! {
    m20250101_000001_create_users: steps,
    m20250101_000002_create_linked_accounts: steps,
    m20250101_000003_create_refresh_tokens: steps,
    m20261123_000004_create_refresh_families: steps,
    m20261123_000005_release_unverified_emails: steps,
    m20261123_000006_index_expiries: steps,
    m20261123_000007_create_audit_events: steps,
    m20261125_000008_family_auth_time: steps,
    // Rewrites rows in Rust: it implements `MigrationTrait` itself.
    m20261125_000009_ascii_email_keys: own,
    m20261125_000010_schedule_webhooks: steps,
    m20261126_000011_provider_signals: steps,
    m20261126_000012_operator_api: steps,
    m20261126_000013_grant_client_id: steps,
    m20261126_000014_drop_link_user_index: steps,
    m20261206_000015_link_scopes: steps,
    m20261206_000016_link_token_expiry: steps,
    m20261206_000017_event_via: steps,
    m20261207_000018_outbox_redelivered: steps,
    m20261207_000019_sessions_by_creation: steps,
    m20261207_000020_webhook_probe_turn: steps,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Databases record each migration by name, which sea-orm derives from the file name;
    /// a migration whose name changed would run again on every existing database.
    #[test]
    fn each_migration_is_named_after_its_file_in_the_order_they_apply() {
        let names: Vec<String> = Migrator::migrations()
            .iter()
            .map(|migration| migration.name().to_owned())
            .collect();
        let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<String> = std::fs::read_dir(source)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter_map(|path| Some(path.file_stem()?.to_str()?.to_owned()))
            .filter(|stem| {
                stem.starts_with('m') && stem.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
            })
            .collect();
        files.sort();
        assert_eq!(names, files);
    }
}
