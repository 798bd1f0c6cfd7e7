//! Applying this build's migrations to a database that may be ahead of it.

use crate::Migrator;
use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseConnection;

/// What the database had recorded besides this build's migrations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Nothing: every migration it records is one of this build's (now all applied).
    OnlyKnown,
    /// Migrations of a newer release, applied after all of this build's. Its schema is this
    /// build's with additions, which an older build runs on: an instance of the old version
    /// restarting during a rolling update, or a rollback.
    Newer(Vec<String>),
}

/// Applies this build's pending migrations. A database that a newer release migrated
/// further is left as it is ([`Recorded::Newer`]). One that records a migration this build
/// does not know while some of its own are pending, or one older than its newest, comes
/// from another line of releases: refused, and nothing is applied.
pub async fn apply_pending(db: &DatabaseConnection) -> Result<Recorded, DbErr> {
    let known: Vec<String> = Migrator::migrations()
        .iter()
        .map(|migration| migration.name().to_owned())
        .collect();
    let recorded: Vec<String> = Migrator::get_migration_models(db)
        .await?
        .into_iter()
        .map(|model| model.version)
        .collect();
    let unknown: Vec<String> = recorded
        .iter()
        .filter(|version| !known.contains(version))
        .cloned()
        .collect();
    if unknown.is_empty() {
        Migrator::up(db, None).await?;
        return Ok(Recorded::OnlyKnown);
    }
    // Names begin with their date: a newer release's sort after this build's newest.
    let newest_known = known.last();
    let all_newer = unknown.iter().all(|version| Some(version) > newest_known);
    let none_pending = known.iter().all(|version| recorded.contains(version));
    if all_newer && none_pending {
        return Ok(Recorded::Newer(unknown));
    }
    Err(DbErr::Custom(format!(
        "the database records migrations this build does not know ({}) {}; nothing was applied",
        unknown.join(", "),
        if none_pending {
            "among its own"
        } else {
            "while some of its own are pending"
        }
    )))
}
