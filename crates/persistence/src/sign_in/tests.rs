//! The one-statement login on PostgreSQL: when a returning user's link is removed or
//! disabled between the read and the write, or an operator locks the user, the statement
//! writes nothing at all (no session, no audit event) and the login is decided again.

use super::*;
use sea_orm::DatabaseConnection;
use social_login_domain::ProviderKey;
use social_login_domain::plan::Write;
use social_login_ports::UserRepository;
use social_login_testing::contract::repository::fixtures::{
    auto_linking_login_of, login_of, provider_identity, sign_in,
};

async fn rows(db: &DatabaseConnection, table: &str) -> i64 {
    crate::test_postgres::count(db, &format!("SELECT count(*) AS n FROM {table}")).await
}

#[tokio::test]
async fn a_link_removed_or_disabled_or_a_user_locked_after_the_read_gets_no_session() {
    let Some((repo, database)) = crate::test_postgres::migrated_postgres().await else {
        return;
    };
    let db = repo.connection();
    for (subject, meanwhile) in [
        ("removed", "DELETE FROM linked_accounts"),
        ("disabled", "UPDATE linked_accounts SET disabled = TRUE"),
        ("locked", "UPDATE users SET locked = TRUE"),
    ] {
        let identity = provider_identity(ProviderKey::GITHUB, subject, None, false);
        repo.sign_in_with_provider(sign_in(identity.clone()))
            .await
            .unwrap();
        let again = sign_in(identity);
        let plan = plan(db, &again).await.unwrap();
        let head = &plan.writes.writes[0];
        assert!(matches!(head, Write::RefreshLink(_)), "{subject}");
        let before = (
            rows(db, "refresh_families").await,
            rows(db, "refresh_tokens").await,
            rows(db, "audit_events").await,
        );
        db.execute_unprepared(meanwhile).await.unwrap();

        let wrote = LoginStatement::of_plan(&plan.writes)
            .unwrap()
            .run(db)
            .await
            .unwrap();

        assert!(!wrote, "{subject}");
        let after = (
            rows(db, "refresh_families").await,
            rows(db, "refresh_tokens").await,
            rows(db, "audit_events").await,
        );
        assert_eq!(after, before, "{subject}");
        db.execute_unprepared("DELETE FROM users").await.unwrap();
    }
    database.drop().await;
}

#[tokio::test]
async fn a_new_link_of_a_user_locked_after_the_read_is_not_written() {
    let Some((repo, database)) = crate::test_postgres::migrated_postgres().await else {
        return;
    };
    let db = repo.connection();
    let github = login_of(ProviderKey::GITHUB, "gh-1", Some("ada@example.com"), true);
    repo.sign_in_with_provider(github).await.unwrap();
    let google = auto_linking_login_of(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let plan = plan(db, &google).await.unwrap();
    assert!(matches!(&plan.writes.writes[0], Write::InsertLink(_)));
    let before = (
        rows(db, "linked_accounts").await,
        rows(db, "refresh_families").await,
    );
    db.execute_unprepared("UPDATE users SET locked = TRUE")
        .await
        .unwrap();

    let wrote = LoginStatement::of_plan(&plan.writes)
        .unwrap()
        .run(db)
        .await
        .unwrap();

    assert!(!wrote);
    let after = (
        rows(db, "linked_accounts").await,
        rows(db, "refresh_families").await,
    );
    assert_eq!(after, before);
    database.drop().await;
}
