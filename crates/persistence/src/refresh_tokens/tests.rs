//! The lock order on PostgreSQL: a rotation waits for a deletion that holds the user row,
//! instead of holding its session's rows while the deletion's cascade waits for them.

use sea_orm::{ConnectionTrait, TransactionTrait};
use social_login_ports::{RotateError, RotationRefused};
use social_login_testing::contract::repository::fixtures::{
    new_user, now, rotation, store_token, store_user, token_hash,
};
use std::time::Duration;

/// How many of the database's backends wait for a lock.
async fn waiting_for_locks(db: &impl ConnectionTrait) -> i64 {
    let sql = "SELECT count(*) AS n FROM pg_stat_activity \
         WHERE datname = current_database() AND wait_event_type = 'Lock'";
    crate::test_postgres::count(db, sql).await
}

#[tokio::test]
async fn a_rotation_racing_the_deletion_of_its_user_waits_for_it_and_is_refused() {
    let Some((repo, database)) = crate::test_postgres::migrated_postgres().await else {
        return;
    };
    let ada = store_user(&repo, &new_user(Some("ada@example.com"), true), None).await;
    store_token(&repo, ada.id, token_hash(1)).await;
    // A deletion in flight: it holds the user row and has not yet cascaded to the sessions.
    let deleting = repo.connection().begin().await.unwrap();
    let user = ada.id.as_uuid();
    let lock = format!("SELECT id FROM users WHERE id = '{user}' FOR UPDATE");
    deleting.execute_unprepared(&lock).await.unwrap();

    let rotating = tokio::spawn({
        let repo = repo.clone();
        async move {
            let tokens = (token_hash(1), token_hash(2));
            rotation(&repo, tokens, now(), time::Duration::days(2)).await
        }
    });
    for _ in 0..200 {
        if waiting_for_locks(repo.connection()).await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(waiting_for_locks(repo.connection()).await, 1);
    // The cascade deletes the user's tokens and sessions: taken first by the rotation, they
    // would make each wait for the other until PostgreSQL broke the deadlock.
    let delete = format!("DELETE FROM users WHERE id = '{user}'");
    deleting.execute_unprepared(&delete).await.unwrap();
    deleting.commit().await.unwrap();

    let rotated = rotating.await.unwrap();
    assert_eq!(rotated, Err(RotateError::Refused(RotationRefused::Invalid)));
    database.drop().await;
}
