//! The repository contract of `social-login-testing`, every rule on a fresh SQLite file
//! through each adapter (sea-orm, and rusqlite, which the service serves SQLite with) and,
//! with `TEST_POSTGRES_URL`, a fresh PostgreSQL database: the same rules the in-memory fake
//! is held to.

use crate::harness::{on_every_backend, on_rusqlite};
use social_login_testing::contract::repository::Rule;
use std::sync::Arc;

async fn on_every_database(rule: Rule) {
    on_every_backend(move |repo| rule(Arc::new(repo))).await;
    on_rusqlite(move |repo| rule(Arc::new(repo))).await;
}

social_login_testing::repository_contract!(on_every_database);
