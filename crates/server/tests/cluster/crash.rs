//! `kill -9` in the middle of a burst of first logins, then a restart on the same database:
//! nothing half-written survives, so every identity logs in as exactly one user.

use super::deployment::{Database, Deployment, States, or_skip};
use super::flows::{Browser, user_id};
use reqwest::StatusCode;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::Value;
use social_login_simulator::SimUser;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const IDENTITIES: usize = 40;
/// The process is killed once this many logins of the burst have answered.
const KILL_AFTER: usize = 8;
/// Callbacks start this far apart, so that logins are still arriving when the kill lands
/// even when a loaded machine wakes the test late.
const STAGGER: Duration = Duration::from_millis(15);

fn identity(i: usize) -> SimUser {
    SimUser::new(format!("{}", 8_000_000 + i), format!("crash{i}"))
        .with_email(format!("crash{i}@example.com"), true)
}

async fn a_hard_kill_during_first_logins_leaves_nothing_half_written(database: Database) {
    let users = (0..IDENTITIES).map(identity).collect();
    let deployment = or_skip!(Deployment::new(database, States::Memory, users).await);
    let browser = Browser::new();
    let instance = deployment.spawn_instance();

    // Every login is prepared first, so the burst is only callbacks: user, link and
    // session writes, overlapping.
    let mut approvals = Vec::new();
    for i in 0..IDENTITIES {
        approvals.push(
            browser
                .approval(instance.base(), "github", None, &identity(i).id)
                .await,
        );
    }
    let answered = Arc::new(AtomicUsize::new(0));
    let burst: Vec<_> = approvals
        .into_iter()
        .enumerate()
        .map(|(i, approval)| {
            let (browser, base, answered) = (
                browser.clone(),
                instance.base().to_owned(),
                answered.clone(),
            );
            let start = STAGGER * u32::try_from(i).expect("few identities");
            tokio::spawn(async move {
                tokio::time::sleep(start).await;
                let outcome = browser
                    .http
                    .post(format!("{base}/auth/oauth/github/callback"))
                    .json(&approval.body())
                    .send()
                    .await;
                answered.fetch_add(1, Ordering::SeqCst);
                match outcome {
                    Ok(response) => Some((
                        response.status(),
                        response.json::<Value>().await.unwrap_or_default(),
                    )),
                    Err(_) => None, // cut off by the kill
                }
            })
        })
        .collect();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while answered.load(Ordering::SeqCst) < KILL_AFTER && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    instance.kill_hard();

    let mut before_crash = BTreeMap::new();
    let mut cut_off = 0;
    for (i, task) in burst.into_iter().enumerate() {
        match task.await.unwrap() {
            Some((status, body)) if status == StatusCode::OK => {
                before_crash.insert(i, user_id(&body));
            }
            Some((status, body)) => panic!("login {i} answered {status} before the kill: {body}"),
            None => cut_off += 1,
        }
    }
    assert!(cut_off > 0, "the kill must land in the middle of the burst");

    let restarted = deployment.spawn_instance();
    for i in 0..IDENTITIES {
        let first = browser.login(restarted.base(), &identity(i).id).await;
        let second = browser.login(restarted.base(), &identity(i).id).await;
        let user = first["user"]["id"].as_str().unwrap();
        assert_eq!(second["user"]["id"], user, "identity {i}: one user");
        if let Some(before) = before_crash.get(&i) {
            assert_eq!(before, user, "identity {i}: the user from before the crash");
        }
    }
    assert_no_half_written_rows(&deployment.database_url).await;
}

/// Every user registered by a provider login has its link, and every refresh token its user.
async fn assert_no_half_written_rows(url: &str) {
    let db = sea_orm::Database::connect(url).await.unwrap();
    for (what, sql) in [
        (
            "users without a linked account",
            "SELECT COUNT(*) AS n FROM users u WHERE NOT EXISTS \
             (SELECT 1 FROM linked_accounts l WHERE l.user_id = u.id)",
        ),
        (
            "refresh tokens without a user",
            "SELECT COUNT(*) AS n FROM refresh_tokens r WHERE NOT EXISTS \
             (SELECT 1 FROM users u WHERE u.id = r.user_id)",
        ),
    ] {
        let row = db
            .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
            .await
            .unwrap()
            .unwrap();
        let count: i64 = row.try_get("", "n").unwrap();
        assert_eq!(count, 0, "{what}");
    }
    db.close().await.ok();
}

#[tokio::test]
async fn a_hard_kill_during_first_logins_leaves_nothing_half_written_on_sqlite() {
    a_hard_kill_during_first_logins_leaves_nothing_half_written(Database::Sqlite).await;
}

#[tokio::test]
async fn a_hard_kill_during_first_logins_leaves_nothing_half_written_on_postgres() {
    a_hard_kill_during_first_logins_leaves_nothing_half_written(Database::Postgres).await;
}
