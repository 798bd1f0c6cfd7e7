//! Every query of the login, session, housekeeping and webhook paths uses an index: `EXPLAIN QUERY
//! PLAN` on SQLite shows no full scan, and `EXPLAIN` on PostgreSQL with sequential scans
//! disabled still finds a plan without one. An ordered query reads in an index's order: neither
//! needs to sort what it read.

use super::*;
use crate::connect::{DatabaseOptions, connect};
use sea_orm::{ConnectionTrait, DbBackend, QueryTrait, Statement};
use social_login_domain::EventsView;

/// Each query with sample values, as the repository builds it.
fn every_query(backend: DbBackend) -> Vec<(&'static str, Statement)> {
    let subject = ProviderSubject::parse("583231").unwrap();
    let hash = RefreshTokenHash([7; 32]);
    let user = UserId::new();
    let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let ids = vec![Uuid::new_v4(), Uuid::new_v4()];
    let after = Uuid::now_v7();
    vec![
        (
            "link_with_user",
            link_with_user(ProviderKey::GITHUB, &subject).build(backend),
        ),
        ("link", link(ProviderKey::GITHUB, &subject).build(backend)),
        (
            "user_by_email",
            user_by_email("ada@example.com").build(backend),
        ),
        ("user_by_id", user_by_id(user).build(backend)),
        ("links_of", links_of(user).build(backend)),
        (
            "update_link",
            update_link(LinkedAccountId::new())
                .col_expr(linked_account::Column::Email, Expr::value("a@b.c"))
                .build(backend),
        ),
        ("family", family(ids[0]).build(backend)),
        ("mark_used", mark_used(hash).build(backend)),
        ("delete_token", delete_token(hash).build(backend)),
        (
            "revoke_family",
            revoke_family(FamilyId::new()).build(backend),
        ),
        (
            "events_of",
            events_of(UserEvents {
                user,
                limit: 100,
                view: EventsView::Own,
            })
            .build(backend),
        ),
        (
            "delete_events_before",
            delete_events_before(now, 1000).build(backend),
        ),
        ("ended_families", ended_families(now, 1000).build(backend)),
        (
            "delete_tokens_of",
            delete_tokens_of(ids.clone()).build(backend),
        ),
        (
            "delete_families",
            delete_families(ids.clone()).build(backend),
        ),
        (
            "delete_expired_tokens",
            delete_expired_tokens(now, 1000).build(backend),
        ),
        (
            "revoke_sessions_of",
            revoke_sessions_of(user, Some(LoginMethod::Provider(ProviderKey::APPLE)))
                .build(backend),
        ),
        (
            "revoke_all_sessions_of",
            revoke_sessions_of(user, None).build(backend),
        ),
        (
            "receipt",
            receipt(SignalSource::GoogleRisc, &SignalId::parse("jti").unwrap()).build(backend),
        ),
        (
            "delete_receipts_before",
            delete_receipts_before(1_800_000_000_000, 1000).build(backend),
        ),
        ("users_after", users_after(after, 51).build(backend)),
        (
            "users_by_email_after",
            users_by_email_after("ada@example.com", after, 51).build(backend),
        ),
        (
            "linked_users_after",
            linked_users_after(ProviderKey::GITHUB, None, after, 51).build(backend),
        ),
        (
            "linked_user_of_account_after",
            linked_users_after(ProviderKey::GITHUB, Some(&subject), after, 51).build(backend),
        ),
        (
            "active_sessions_of",
            active_sessions_of(user, now).build(backend),
        ),
        ("set_locked", set_locked(user, true).build(backend)),
        (
            "newest_sessions_of",
            newest_sessions_of(user).build(backend),
        ),
        ("tokens_issued_of", tokens_issued_of(ids).build(backend)),
    ]
}

/// A rotation's read of the presented token with its family, in its `$n` form (the SQLite
/// service reads them with rusqlite, whose statements `sqlite::explain` checks).
fn token_and_family(backend: DbBackend) -> (&'static str, Statement) {
    let hash = RefreshTokenHash([7; 32]);
    let sql = crate::refresh_tokens::TOKEN_AND_FAMILY;
    let values = vec![hash.0.to_vec().into()];
    (
        "token_and_family",
        crate::raw_sql::statement(backend, sql, values),
    )
}

/// A rotation's read of the presented token's user, in its `$n` form.
fn token_owner(backend: DbBackend) -> (&'static str, Statement) {
    let hash = RefreshTokenHash([7; 32]);
    let sql = crate::refresh_tokens::TOKEN_OWNER;
    let values = vec![hash.0.to_vec().into(), Some(Uuid::new_v4()).into()];
    (
        "token_owner",
        crate::raw_sql::statement(backend, sql, values),
    )
}

/// A relayed call's read of its grant, in its `$n` form.
fn grant_for_relay(backend: DbBackend) -> (&'static str, Statement) {
    let values = vec![Uuid::new_v4().into(), "github".into()];
    let sql = crate::relay_sql::GRANT_FOR_RELAY;
    (
        "grant_for_relay",
        crate::raw_sql::statement(backend, sql, values),
    )
}

/// The webhook outbox's statements with sample values, in their `$n` order.
fn outbox_queries(backend: DbBackend) -> Vec<(&'static str, Statement)> {
    use sea_orm::Value;
    let id = || -> Value { Uuid::now_v7().into() };
    let ms = || -> Value { 1_800_000_000_000_i64.into() };
    let n = |value: i64| -> Value { value.into() };
    let text = || -> Value { "receiver answered 403".into() };
    crate::outbox_sql::ALL
        .into_iter()
        .map(|(name, sql)| {
            let values = match name {
                "CLAIM" => vec![ms(), ms(), ms(), n(8)],
                "RETRY" | "DEAD_LETTER" => vec![id(), ms(), 1_i32.into(), text(), ms()],
                "DELETE" => vec![id(), ms()],
                "DEAD_LETTER_BEFORE" => vec![id(), ms(), text(), n(1000), ms()],
                "DEAD_LETTER_BEYOND" => vec![n(1000), ms(), text(), n(1000)],
                "DEAD_LETTERS" => vec![n(100)],
                "REDELIVER" => vec![id(), ms()],
                "TAKE_PROBE_TURN" => vec![ms(), ms()],
                "FORGET_DEAD_BEYOND" => vec![n(1000), n(1000)],
                "REDELIVER_DEAD" => vec![ms(), n(1000)],
                "FORGET_BEFORE" => vec![id(), n(1000)],
                "FIND_EVENTS_OF_USER" => vec![
                    Some(Uuid::new_v4()).into(),
                    Option::<String>::None.into(),
                    id(),
                    id(),
                    n(1000),
                ],
                "FIND_EVENTS" => vec![
                    Option::<Uuid>::None.into(),
                    Option::<String>::None.into(),
                    id(),
                    id(),
                    n(1000),
                ],
                _ => Vec::new(),
            };
            (name, crate::raw_sql::statement(backend, sql, values))
        })
        .collect()
}

/// The text column `column` of each row of the plan that `explain` (the query `name`'s)
/// answers.
async fn plan_column(
    db: &impl ConnectionTrait,
    explain: String,
    column: &str,
    name: &str,
) -> Vec<String> {
    let statement = Statement::from_string(db.get_database_backend(), explain);
    db.query_all_raw(statement)
        .await
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .iter()
        .map(|row| row.try_get::<String>("", column).unwrap())
        .collect()
}

#[tokio::test]
async fn every_login_path_query_uses_an_index_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("plan.db").display());
    let repo = connect(&DatabaseOptions::new(url)).await.unwrap();
    repo.migrate().await.unwrap();
    let db = repo.connection();
    // The outbox's SQLite text is checked by `sqlite::explain` (sea-orm cannot print its
    // numbered `?n` placeholders with values).
    for (name, statement) in every_query(DbBackend::Sqlite) {
        let sql = format!("EXPLAIN QUERY PLAN {statement}");
        let details = plan_column(db, sql, "detail", name).await;
        assert_sqlite_reads_by_index(name, &details, &statement.to_string());
    }
}

/// Asserts that SQLite's plan of the statement `name` (its `EXPLAIN QUERY PLAN` details)
/// reads through an index: no full scan, and no sort of what it read.
pub(crate) fn assert_sqlite_reads_by_index(name: &str, details: &[String], sql: &str) {
    let faults = [
        ("SCAN", "scans a whole table"),
        (
            "TEMP B-TREE",
            "sorts what it read instead of reading in an index's order",
        ),
    ];
    assert_plan_shows_none(name, details, sql, faults);
}

/// Asserts that the plan of the statement `name` has lines and none that holds a marker of
/// `faults` (the marker, what it means).
fn assert_plan_shows_none(name: &str, plan: &[String], sql: &str, faults: [(&str, &str); 2]) {
    assert!(!plan.is_empty(), "{name}: no plan");
    for (marker, meaning) in faults {
        let shown = plan.iter().any(|line| line.contains(marker));
        assert!(!shown, "{name} {meaning}: {plan:#?}\n{sql}");
    }
}

#[tokio::test]
async fn every_login_path_query_uses_an_index_on_postgres() {
    let Some((repo, database)) = crate::test_postgres::migrated_postgres().await else {
        return;
    };
    let db = repo.connection();
    for (name, statement) in every_query(DbBackend::Postgres)
        .into_iter()
        .chain(outbox_queries(DbBackend::Postgres))
        .chain([
            token_and_family(DbBackend::Postgres),
            token_owner(DbBackend::Postgres),
            grant_for_relay(DbBackend::Postgres),
        ])
    {
        // One transaction, so the settings and the EXPLAIN share a connection. With sorts
        // off too, a plan that still sorts has no index that gives its order.
        let txn = sea_orm::TransactionTrait::begin(db).await.unwrap();
        txn.execute_unprepared("SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off")
            .await
            .unwrap();
        let lines = plan_column(&txn, format!("EXPLAIN {statement}"), "QUERY PLAN", name).await;
        txn.rollback().await.unwrap();
        let faults = [
            ("Seq Scan", "needs a sequential scan"),
            ("Sort", "sorts what it read: no index gives its order"),
        ];
        assert_plan_shows_none(name, &lines, &statement.to_string(), faults);
    }
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}
