//! Each migration's `down` is derived from the steps of its `up`: undone one at a time, each
//! leaves the tables, columns and indexes that were there before it, and applying them all
//! again builds the schema the first run built.

use sea_orm_migration::sea_orm::{ConnectionTrait, Database, DatabaseConnection, Statement};
use social_login_migrations::{Migrator, MigratorTrait};

async fn strings(db: &DatabaseConnection, sql: &str) -> Vec<String> {
    let statement = Statement::from_string(db.get_database_backend(), sql);
    let rows = db.query_all_raw(statement).await.unwrap();
    rows.iter()
        .map(|row| row.try_get_by_index(0).unwrap())
        .collect()
}

/// Every index and every table's columns, by name, but the tables sea-orm and SQLite keep
/// for themselves.
async fn names(db: &DatabaseConnection) -> Vec<String> {
    let sql = "WITH ours AS (SELECT type, name FROM sqlite_master \
               WHERE tbl_name NOT IN ('seaql_migrations', 'sqlite_sequence')) \
               SELECT 'index ' || name FROM ours WHERE type = 'index' \
               UNION ALL SELECT 'column ' || ours.name || '.' || p.name \
               FROM ours, pragma_table_info(ours.name) p WHERE ours.type = 'table' ORDER BY 1";
    strings(db, sql).await
}

/// Every table and index, as SQLite stores its statement, by name.
async fn schema(db: &DatabaseConnection) -> Vec<String> {
    let sql = "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name";
    strings(db, sql).await
}

#[tokio::test]
async fn each_down_undoes_its_up_and_applying_them_again_builds_the_same_schema() {
    let file = format!("social-login-migrations-{}.db", std::process::id());
    let path = std::env::temp_dir().join(file);
    let db = Database::connect(format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap();
    let mut before = Vec::new();
    for _ in Migrator::migrations() {
        before.push(names(&db).await);
        Migrator::up(&db, Some(1)).await.unwrap();
    }
    let built = schema(&db).await;
    assert!(names(&db).await.len() > 50);

    for (migration, expected) in Migrator::migrations().iter().zip(&before).rev() {
        Migrator::down(&db, Some(1)).await.unwrap();
        assert_eq!(&names(&db).await, expected, "{} undone", migration.name());
    }
    assert!(before[0].is_empty());

    Migrator::up(&db, None).await.unwrap();
    assert_eq!(schema(&db).await, built);
    db.close().await.unwrap();
    std::fs::remove_file(path).unwrap();
}
