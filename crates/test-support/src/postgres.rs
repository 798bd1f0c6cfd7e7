//! A throwaway PostgreSQL database: created fresh on the server of an admin URL, dropped
//! afterwards, also when the test panics before it could drop it.

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use std::time::Duration;

/// Upper bound on the clean-up a `Drop` does (connect plus `DROP DATABASE`).
const CLEANUP_TIMEOUT: Duration = Duration::from_secs(10);

/// A database of its own for one test, named `social_login_test_<uuid>`.
///
/// Call [`PostgresDatabase::drop`] at the end of the test. If the test panics first, `Drop`
/// removes the database anyway (best effort), so failed runs do not leak databases.
pub struct PostgresDatabase {
    admin_url: String,
    name: String,
    url: String,
    dropped: bool,
}

impl PostgresDatabase {
    /// Creates a new, empty database on the server of `admin_url`, whose role must be
    /// allowed to create databases. Panics if it cannot: the test cannot run without it.
    ///
    /// Its commits return before their WAL is flushed (`synchronous_commit = off`): only a
    /// crash of PostgreSQL itself, which no test causes, could lose the last ones; a killed
    /// service loses nothing either way.
    pub async fn create(admin_url: &str) -> Self {
        Self::create_with(admin_url, false).await
    }

    /// [`PostgresDatabase::create`] with the server's own durability: every commit waits for
    /// its flush, as in production (the benchmark).
    pub async fn create_durable(admin_url: &str) -> Self {
        Self::create_with(admin_url, true).await
    }

    /// Creates the database; unless `durable`, its commits do not wait for the disk.
    async fn create_with(admin_url: &str, durable: bool) -> Self {
        let name = format!("social_login_test_{}", uuid::Uuid::new_v4().simple());
        let quoted = format!("\"{name}\"");
        let mut admin = PgConnection::connect(admin_url)
            .await
            .expect("connect to TEST_POSTGRES_URL");
        sqlx::raw_sql(AssertSqlSafe(format!("CREATE DATABASE {quoted}")))
            .execute(&mut admin)
            .await
            .expect("create the test database");
        // From here on a panic drops the database.
        let database = Self {
            admin_url: admin_url.to_owned(),
            url: with_database(admin_url, &name),
            name,
            dropped: false,
        };
        if !durable {
            let quick = format!("ALTER DATABASE {quoted} SET synchronous_commit = off");
            sqlx::raw_sql(AssertSqlSafe(quick))
                .execute(&mut admin)
                .await
                .expect("tune the test database");
        }
        let _ = admin.close().await;
        database
    }

    /// The URL of this database: the admin URL with the database name replaced.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Drops the database, ending any session still connected to it.
    pub async fn drop(mut self) {
        self.dropped = true;
        drop_database(&self.admin_url, &self.name)
            .await
            .expect("drop the test database");
    }
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        if self.dropped {
            return;
        }
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        // `Drop` cannot await, and it usually runs on the test's runtime, where blocking on a
        // future panics: a short-lived thread with a runtime of its own does the work.
        let cleanup = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|error| error.to_string())?;
            runtime.block_on(async {
                tokio::time::timeout(CLEANUP_TIMEOUT, drop_database(&admin_url, &name))
                    .await
                    .map_err(|_| "timed out".to_owned())?
                    .map_err(|error| error.to_string())
            })
        });
        let outcome = cleanup
            .join()
            .unwrap_or_else(|_| Err("the clean-up thread panicked".to_owned()));
        if let Err(why) = outcome {
            crate::services::loud(&format!(
                "WARNING: test database {} was not dropped ({why}); drop it by hand",
                self.name
            ));
        }
    }
}

async fn drop_database(admin_url: &str, name: &str) -> Result<(), sqlx::Error> {
    let mut admin = PgConnection::connect(admin_url).await?;
    // FORCE (PostgreSQL 13+) ends the sessions of a pool the test did not close.
    let dropped = sqlx::raw_sql(AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
    )))
    .execute(&mut admin)
    .await;
    let _ = admin.close().await;
    dropped.map(drop)
}

/// `url` with its database name replaced by `name`, the query string kept.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let server = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    format!("{server}/{name}{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_name_in_a_url_is_replaced_and_the_query_kept() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(
            with_database("postgres://u:p@h/db?sslmode=disable", "x"),
            "postgres://u:p@h/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
    }
}
