//! What the database holds after the runs: its size and its rows, for the sizing guide's
//! bytes per user and per session. Read over a connection of its own, after every count.

use sea_orm::{ConnectionTrait, DbBackend, Statement};
use social_login_persistence::{DatabaseOptions, connect};

/// The tables whose rows are counted: what the service keeps per user and per session.
const TABLES: [&str; 6] = [
    "users",
    "linked_accounts",
    "refresh_families",
    "refresh_tokens",
    "audit_events",
    "webhook_outbox",
];

/// The tables of the current schema with their indexes and TOAST.
const PG_SCHEMA_BYTES: &str = "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint \
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
     WHERE c.relkind = 'r' AND n.nspname = current_schema()";

pub struct Storage {
    /// SQLite: the pages in use; PostgreSQL: every table of the schema with its indexes and
    /// TOAST.
    pub bytes: u64,
    pub rows: Vec<(&'static str, u64)>,
}

impl Storage {
    pub async fn measure(url: &str) -> Result<Self, String> {
        let repo = connect(&DatabaseOptions::new(url))
            .await
            .map_err(|error| error.to_string())?;
        let db = repo.connection();
        let backend = db.get_database_backend();
        let number = |sql: String| async move {
            let row = db
                .query_one_raw(Statement::from_string(backend, sql))
                .await
                .map_err(|error| error.to_string())?
                .ok_or("no row")?;
            row.try_get_by_index::<i64>(0)
                .map(|n| n.max(0) as u64)
                .map_err(|error| error.to_string())
        };
        let bytes = match backend {
            DbBackend::Sqlite => {
                let pages = number("PRAGMA page_count".into()).await?;
                let free = number("PRAGMA freelist_count".into()).await?;
                (pages - free) * number("PRAGMA page_size".into()).await?
            }
            // Every table of the schema, as SQLite's pages count the whole file: a table
            // added later is counted without anyone remembering to list it.
            _ => number(PG_SCHEMA_BYTES.into()).await?,
        };
        let mut rows = Vec::new();
        for table in TABLES {
            rows.push((
                table,
                number(format!("SELECT COUNT(*) FROM {table}")).await?,
            ));
        }
        db.close_by_ref().await.ok();
        Ok(Self { bytes, rows })
    }
}

impl std::fmt::Display for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2} MiB", self.bytes as f64 / (1024.0 * 1024.0))?;
        for (table, count) in &self.rows {
            write!(f, ", {table} {count}")?;
        }
        Ok(())
    }
}
