//! What a migration does to rows written before it: sessions get the time of their login,
//! email keys are re-derived under the ASCII-only rule. Rows are written as the schema stood
//! before the migration, then the rest is applied and the adapters read them.

use crate::harness::{on_every_unmigrated_backend, on_unmigrated_postgres, rusqlite_repository};
use sea_orm::sea_query::{Alias, Query, SimpleExpr};
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use social_login_domain::UserId;
use social_login_migrations::names::{
    IX_REFRESH_FAMILIES_USER_CREATED, IX_REFRESH_FAMILIES_USER_ID,
};
use social_login_migrations::{Migrator, MigratorTrait};
use social_login_persistence::SeaOrmRepository;
use social_login_testing::contract::repository::Repository;
use social_login_testing::contract::repository::fixtures::{
    email, new_user, now, refresh, rotation, store_user, token_hash,
};
use std::path::PathBuf;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

/// Applies the migrations that come before `name`.
async fn migrate_until(repo: &SeaOrmRepository, name: &str) {
    let before = Migrator::migrations()
        .iter()
        .position(|migration| migration.name() == name)
        .unwrap_or_else(|| panic!("no migration {name}"));
    let steps = u32::try_from(before).unwrap();
    Migrator::up(repo.connection(), Some(steps))
        .await
        .expect("the earlier migrations");
}

async fn insert(repo: &SeaOrmRepository, table: &str, values: Vec<(&str, SimpleExpr)>) {
    let (columns, values): (Vec<_>, Vec<_>) = values
        .into_iter()
        .map(|(column, value)| (Alias::new(column), value))
        .unzip();
    let insert = Query::insert()
        .into_table(Alias::new(table))
        .columns(columns)
        .values_panic(values)
        .to_owned();
    repo.connection().execute(&insert).await.expect("insert");
}

async fn insert_user(repo: &SeaOrmRepository, email: &str, key: &str) -> UserId {
    let id = Uuid::new_v4();
    insert(
        repo,
        "users",
        vec![
            ("id", id.into()),
            ("email", email.into()),
            ("email_normalized", key.into()),
            ("email_verified", true.into()),
            ("created_at", now().into()),
        ],
    )
    .await;
    UserId::from_uuid(id)
}

/// A session as the schema before `auth_time` stored it: a family and its first token.
async fn insert_old_session(repo: &SeaOrmRepository, user: UserId, created_at: OffsetDateTime) {
    let family = Uuid::new_v4();
    insert(
        repo,
        "refresh_families",
        vec![
            ("id", family.into()),
            ("user_id", user.as_uuid().into()),
            ("created_at", created_at.into()),
            ("expires_at", (now() + Duration::days(30)).into()),
            ("revoked", false.into()),
        ],
    )
    .await;
    insert(
        repo,
        "refresh_tokens",
        vec![
            ("token_hash", token_hash(1).0.to_vec().into()),
            ("user_id", user.as_uuid().into()),
            ("family_id", family.into()),
            ("created_at", created_at.into()),
            ("expires_at", (now() + Duration::days(1)).into()),
            ("used", false.into()),
        ],
    )
    .await;
}

/// The adapter the service reads this migrated database with: rusqlite on SQLite (whose
/// directory `sqlite_dir` is), sea-orm's `repo` on PostgreSQL.
async fn served(repo: SeaOrmRepository, sqlite_dir: Option<PathBuf>) -> Box<dyn Repository> {
    match sqlite_dir {
        Some(dir) => Box::new(rusqlite_repository(&dir).await),
        None => Box::new(repo),
    }
}

/// When the session [`ada_with_an_old_session`] writes began.
fn three_days_ago() -> OffsetDateTime {
    now() - Duration::days(3)
}

/// Ada as the schema before migration `name` stored her, with a session (token 1) begun
/// [`three_days_ago`]; the migrations before `name` are applied.
async fn ada_with_an_old_session(repo: &SeaOrmRepository, name: &str) -> UserId {
    migrate_until(repo, name).await;
    let ada = insert_user(repo, "ada@example.com", "ada@example.com").await;
    insert_old_session(repo, ada, three_days_ago()).await;
    ada
}

async fn rotates_with_login_time(repo: &dyn Repository, user: UserId, login: OffsetDateTime) {
    let rotated = refresh(repo, token_hash(1)).await;
    assert_eq!(
        rotated.map(|rotated| (rotated.user, rotated.auth_time)),
        Ok((user, login)),
        "a session from before the migration: its login was when it was created"
    );
}

#[tokio::test]
async fn a_session_from_before_auth_time_existed_keeps_its_creation_time_as_its_login() {
    on_every_unmigrated_backend(|repo, sqlite_dir| async move {
        let ada = ada_with_an_old_session(&repo, "m20261125_000008_family_auth_time").await;

        repo.migrate().await.unwrap();

        // On SQLite the rusqlite adapter reads the same column.
        let served = served(repo, sqlite_dir).await;
        rotates_with_login_time(&*served, ada, three_days_ago()).await;
    })
    .await;
}

#[tokio::test]
async fn email_keys_written_by_unicode_lowering_are_rederived_and_still_find_their_users() {
    on_every_unmigrated_backend(|repo, sqlite_dir| async move {
        migrate_until(&repo, "m20261125_000009_ascii_email_keys").await;
        // The keys the old rule (Unicode lowercase) wrote.
        let kelvin = insert_user(&repo, "\u{212A}im@Example.com", "kim@example.com").await;
        let jose = insert_user(&repo, "JOS\u{00C9}@example.com", "jos\u{00E9}@example.com").await;
        let plain = insert_user(&repo, "Ada@Example.com", "ada@example.com").await;

        repo.migrate().await.unwrap();

        let served = served(repo, sqlite_dir).await;
        let found = |address: &'static str| {
            let served = &served;
            async move {
                served
                    .find_user_by_email(&email(address))
                    .await
                    .unwrap()
                    .map(|user| user.id)
            }
        };
        assert_eq!(found("\u{212A}im@example.com").await, Some(kelvin));
        assert_eq!(found("\u{212A}IM@EXAMPLE.COM").await, Some(kelvin));
        assert_eq!(found("kim@example.com").await, None, "k is not U+212A");
        assert_eq!(found("jos\u{00C9}@Example.com").await, Some(jose));
        assert_eq!(found("jos\u{00E9}@example.com").await, None);
        assert_eq!(found("ADA@example.com").await, Some(plain));
        // The ASCII address the look-alike used to hold is free for its real owner.
        let owner = new_user(Some("kim@example.com"), true);
        store_user(&*served, &owner, None).await;
        assert_eq!(found("Kim@example.com").await, Some(owner.id));
    })
    .await;
}

async fn insert_link(repo: &SeaOrmRepository, user: UserId, provider: &str, subject: &str) {
    insert(
        repo,
        "linked_accounts",
        vec![
            ("id", Uuid::new_v4().into()),
            ("user_id", user.as_uuid().into()),
            ("provider", provider.into()),
            ("subject", subject.into()),
            ("access_token", "k1:sealed".into()),
            ("created_at", now().into()),
            ("updated_at", now().into()),
        ],
    )
    .await;
}

/// A session from before sessions recorded how they began: a provider's signal cannot know
/// it began with that provider, so only what ends all of a user's sessions ends it.
async fn unknown_session_survives_provider_signals_only(repo: &dyn Repository, ada: UserId) {
    use social_login_domain::{SignalKind, SignalSource};
    use social_login_ports::SignalOutcome;
    use social_login_testing::contract::repository::signal;
    let acts_on_ada = |command| async move {
        let outcome = repo.apply_signal(command).await;
        matches!(outcome, Ok(SignalOutcome::Applied { user, .. }) if user == ada)
    };
    let rotate =
        |presented, successor| rotation(repo, (presented, successor), now(), Duration::days(1));
    let apple = SignalSource::AppleNotification;
    let revoked = signal(apple, "jti-1", "apple-ada", SignalKind::ConsentRevoked);
    assert!(acts_on_ada(revoked).await);
    assert!(
        rotate(token_hash(1), token_hash(2)).await.is_ok(),
        "consent-revoked left it"
    );
    let risc = SignalSource::GoogleRisc;
    let disabled = signal(risc, "set-1", "g-ada", SignalKind::AccountDisabled);
    assert!(acts_on_ada(disabled).await);
    assert!(
        rotate(token_hash(2), token_hash(3)).await.is_err(),
        "account-disabled ended it"
    );
}

#[tokio::test]
async fn a_session_from_before_sessions_recorded_their_login_is_ended_only_by_whole_user_actions() {
    on_every_unmigrated_backend(|repo, sqlite_dir| async move {
        let ada = ada_with_an_old_session(&repo, "m20261126_000011_provider_signals").await;
        insert_link(&repo, ada, "apple", "apple-ada").await;
        insert_link(&repo, ada, "google", "g-ada").await;

        repo.migrate().await.unwrap();

        let served = served(repo, sqlite_dir).await;
        unknown_session_survives_provider_signals_only(&*served, ada).await;
    })
    .await;
}

#[tokio::test]
async fn a_migration_that_fails_half_way_leaves_nothing_and_applies_whole_next_time() {
    on_every_unmigrated_backend(|repo, _| async move {
        migrate_until(&repo, "m20261126_000011_provider_signals").await;
        // The migration's fourth step creates this table (one step per added column before
        // it): three have run when it fails.
        let db = repo.connection();
        db.execute_unprepared("CREATE TABLE signal_receipts (stands_in_the_way INTEGER)")
            .await
            .unwrap();
        assert!(Migrator::up(db, Some(1)).await.is_err());

        db.execute_unprepared("DROP TABLE signal_receipts")
            .await
            .unwrap();
        Migrator::up(db, Some(1))
            .await
            .expect("applied whole: nothing of the failed attempt is left");
        repo.migrate().await.unwrap();
    })
    .await;
}

/// Whether `refresh_families` has the index `name`.
async fn has_session_index(repo: &SeaOrmRepository, name: &str) -> bool {
    let db = repo.connection();
    let sql = match db.get_database_backend() {
        DbBackend::Postgres => {
            "SELECT indexname FROM pg_indexes WHERE tablename = 'refresh_families'"
        }
        _ => {
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refresh_families'"
        }
    };
    let statement = Statement::from_string(db.get_database_backend(), sql);
    let rows = db.query_all_raw(statement).await.expect("the index list");
    rows.iter()
        .any(|row| row.try_get_by_index::<String>(0).unwrap() == name)
}

#[tokio::test]
async fn the_sessions_index_an_operator_built_beforehand_is_kept_and_the_old_one_goes() {
    on_every_unmigrated_backend(|repo, _| async move {
        migrate_until(&repo, "m20261207_000019_sessions_by_creation").await;
        let db = repo.connection();
        // What docs/operations.md tells a PostgreSQL operator to run before the upgrade, so
        // that building the index does not hold up logins (outside a transaction).
        let concurrently = match db.get_database_backend() {
            DbBackend::Postgres => "CONCURRENTLY ",
            _ => "",
        };
        db.execute_unprepared(&format!(
            "CREATE INDEX {concurrently}{IX_REFRESH_FAMILIES_USER_CREATED} \
             ON refresh_families (user_id, created_at)"
        ))
        .await
        .unwrap();

        repo.migrate()
            .await
            .expect("the migration keeps the index it finds");

        assert!(has_session_index(&repo, IX_REFRESH_FAMILIES_USER_CREATED).await);
        assert!(
            !has_session_index(&repo, IX_REFRESH_FAMILIES_USER_ID).await,
            "the index on user_id alone is replaced"
        );
    })
    .await;
}

/// Records `version` as applied, as a release that has that migration would.
async fn record_migration(repo: &SeaOrmRepository, version: &str) {
    let values = vec![("version", version.into()), ("applied_at", 0_i64.into())];
    insert(repo, "seaql_migrations", values).await;
}

#[tokio::test]
async fn a_database_a_newer_release_migrated_is_served_as_it_is() {
    on_every_unmigrated_backend(|repo, _| async move {
        repo.migrate().await.unwrap();
        record_migration(&repo, "m20991231_000099_from_a_newer_release").await;

        repo.migrate()
            .await
            .expect("an older build (a rollback, an old instance restarting) runs on it");
    })
    .await;
}

#[tokio::test]
async fn a_database_of_another_line_of_releases_is_refused_and_left_as_it_is() {
    on_every_unmigrated_backend(|repo, _| async move {
        // Unknown, and older than this build's newest migration.
        repo.migrate().await.unwrap();
        record_migration(&repo, "m20250101_000000_another_line").await;
        assert!(repo.migrate().await.is_err());
    })
    .await;
    on_every_unmigrated_backend(|repo, _| async move {
        // Newer, but some of this build's own are pending: which schema it has is unknown.
        migrate_until(&repo, "m20261207_000019_sessions_by_creation").await;
        record_migration(&repo, "m20991231_000099_from_a_newer_release").await;
        assert!(repo.migrate().await.is_err());
        assert!(
            has_session_index(&repo, IX_REFRESH_FAMILIES_USER_ID).await,
            "nothing applied"
        );
    })
    .await;
}

#[tokio::test]
async fn a_migration_gives_up_on_a_table_a_long_transaction_holds_and_applies_later() {
    on_unmigrated_postgres(|repo| async move {
        migrate_until(&repo, "m20261207_000019_sessions_by_creation").await;
        // A backup's or a report's transaction, reading the table the migration alters.
        let reader = sea_orm::TransactionTrait::begin(repo.connection())
            .await
            .unwrap();
        reader
            .execute_unprepared("LOCK TABLE refresh_families IN ACCESS SHARE MODE")
            .await
            .unwrap();

        let waited = tokio::time::timeout(std::time::Duration::from_secs(30), repo.migrate()).await;
        let given_up = waited.as_ref().is_ok_and(|migrated| {
            migrated
                .as_ref()
                .is_err_and(|error| error.to_string().contains("lock timeout"))
        });
        assert!(
            given_up,
            "gives up after its lock wait instead of queueing every login behind it: {waited:?}"
        );

        reader.rollback().await.unwrap();
        repo.migrate()
            .await
            .expect("applied once the table is free");
        assert!(has_session_index(&repo, IX_REFRESH_FAMILIES_USER_CREATED).await);
    })
    .await;
}

#[tokio::test]
async fn an_index_a_failed_concurrent_build_left_invalid_is_built_again() {
    on_unmigrated_postgres(|repo| async move {
        migrate_until(&repo, "m20261207_000019_sessions_by_creation").await;
        let db = repo.connection();
        // What a cancelled `CREATE INDEX CONCURRENTLY` leaves: the name, never used.
        db.execute_unprepared(&format!(
            "CREATE INDEX {IX_REFRESH_FAMILIES_USER_CREATED} ON refresh_families (user_id, created_at); \
             UPDATE pg_index SET indisvalid = false \
             WHERE indexrelid = '{IX_REFRESH_FAMILIES_USER_CREATED}'::regclass"
        ))
        .await
        .unwrap();

        repo.migrate().await.unwrap();

        let valid = db
            .query_one_raw(Statement::from_string(
                DbBackend::Postgres,
                format!(
                    "SELECT indisvalid FROM pg_index \
                     WHERE indexrelid = '{IX_REFRESH_FAMILIES_USER_CREATED}'::regclass"
                ),
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index::<bool>(0)
            .unwrap();
        assert!(valid, "built again, valid");
    })
    .await;
}
