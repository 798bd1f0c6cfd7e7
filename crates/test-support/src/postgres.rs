//! A fresh PostgreSQL database for one test, dropped afterwards (also when the test fails).

use sea_orm::{ConnectionTrait, Database};

pub struct PostgresDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PostgresDatabase {
    /// Creates a uniquely named database on the server of `admin_url`.
    pub async fn create(admin_url: &str) -> Self {
        let name = format!("social_login_test_{}", uuid::Uuid::new_v4().simple());
        let admin = Database::connect(admin_url)
            .await
            .expect("connect to TEST_POSTGRES_URL");
        admin
            .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
            .await
            .expect("create a test database");
        admin.close().await.ok();
        Self {
            admin_url: admin_url.to_owned(),
            url: with_database(admin_url, &name),
            name,
        }
    }

    /// The URL of the new database.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // A runtime of its own on a thread of its own: `drop` cannot await, and the test's
        // runtime may be shutting down. FORCE ends connections a server still holds.
        let _ = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async {
                if let Ok(admin) = Database::connect(admin_url.as_str()).await {
                    let _ = admin
                        .execute_unprepared(&format!(
                            "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                        ))
                        .await;
                    admin.close().await.ok();
                }
            });
        })
        .join();
    }
}

/// `url` with its database name replaced by `name`, query string kept.
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
    use super::with_database;

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
