//! What the tests store, built as the repository contract builds it, plus looks around the
//! ports at the rows themselves.

use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query};
use sea_orm::{ConnectionTrait, Statement};
use social_login_domain::{LinkedAccountId, UserId};
use social_login_persistence::SeaOrmRepository;

pub use social_login_testing::contract::repository::fixtures::*;

/// The stored (email, access_token, refresh_token) of a link, read around the ports.
pub async fn stored_link_columns(
    repo: &SeaOrmRepository,
    link: LinkedAccountId,
) -> (Option<String>, String, Option<String>) {
    let select = Query::select()
        .columns([
            Alias::new("email"),
            Alias::new("access_token"),
            Alias::new("refresh_token"),
        ])
        .from(Alias::new("linked_accounts"))
        .and_where(Expr::col(Alias::new("id")).eq(link.as_uuid()))
        .to_owned();
    let row = repo
        .connection()
        .query_one(&select)
        .await
        .expect("select link")
        .expect("link exists");
    (
        row.try_get("", "email").expect("email"),
        row.try_get("", "access_token").expect("access_token"),
        row.try_get("", "refresh_token").expect("refresh_token"),
    )
}

/// The one number a `SELECT count(*) …` of `repo`'s database answers.
pub async fn count_of(repo: &SeaOrmRepository, sql: &str) -> i64 {
    let backend = repo.connection().get_database_backend();
    let count = Statement::from_string(backend, sql);
    let row = repo.connection().query_one_raw(count).await.unwrap();
    row.expect("a count answers a row")
        .try_get_by_index(0)
        .unwrap()
}

/// Deletes a user row directly: the ports have no such operation.
pub async fn delete_user_row(repo: &SeaOrmRepository, user: UserId) {
    let delete = Query::delete()
        .from_table(Alias::new("users"))
        .and_where(Expr::col(Alias::new("id")).eq(user.as_uuid()))
        .to_owned();
    repo.connection()
        .execute(&delete)
        .await
        .expect("delete user");
}
