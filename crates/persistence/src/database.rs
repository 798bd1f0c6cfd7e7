//! The repository the service runs on, chosen by the database URL: SQLite files through
//! rusqlite ([`SqliteRepository`]), PostgreSQL through sea-orm ([`SeaOrmRepository`]).

use crate::{DatabaseOptions, SeaOrmRepository, SqliteRepository, connect};
use async_trait::async_trait;
use social_login_ports::{RepoResult, Repository};
use std::sync::Arc;

/// Every repository port over one database, and its migrations.
#[async_trait]
pub trait Database: Repository + std::fmt::Debug {
    /// Applies pending migrations; safe from several processes at once.
    async fn migrate(&self) -> RepoResult<()>;
}

impl Repository for SeaOrmRepository {}

impl Repository for SqliteRepository {}

#[async_trait]
impl Database for SeaOrmRepository {
    async fn migrate(&self) -> RepoResult<()> {
        SeaOrmRepository::migrate(self).await
    }
}

#[async_trait]
impl Database for SqliteRepository {
    async fn migrate(&self) -> RepoResult<()> {
        SqliteRepository::migrate(self).await
    }
}

/// Opens the database `options` names, without running migrations.
pub async fn open(options: &DatabaseOptions) -> RepoResult<Arc<dyn Database>> {
    if options.url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteRepository::open(options).await?))
    } else {
        Ok(Arc::new(connect(options).await?))
    }
}
