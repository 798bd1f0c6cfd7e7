//! The operator API across real `social-login serve` processes on one PostgreSQL database: a
//! lock made on one instance holds on the other at once (the database says so on every
//! request), a lock that lands in the middle of a refresh race leaves nothing it issued
//! alive, and an admin key taken out of the configuration is refused once restarted.

use super::deployment::{Database, Deployment, Instance, States, ada, or_skip, two_instances};
use super::flows::{Browser, access_token, assert_problem_code, problem_code, user_id};
use reqwest::StatusCode;
use serde_json::Value;
use social_login_security::AdminKeyHash;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const ADMIN_KEY: &str = "sla_the-cluster-tests-admin-key-0123456789abcdefghij";
const NEW_KEY: &str = "sla_the-cluster-tests-next-admin-key-0123456789abcdef";
/// Refreshes one session chain may make before the test calls it hung.
const MAX_REFRESHES: usize = 5_000;

fn admin_table(key: &str) -> String {
    format!("\n[admin]\napi_keys = [\"{}\"]\n", AdminKeyHash::of(key))
}

async fn as_admin(browser: &Browser, key: &str, method: &str, url: String) -> reqwest::Response {
    browser
        .http
        .request(method.parse().unwrap(), url)
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
}

/// [`two_instances`] that take [`ADMIN_KEY`], Ada among the people of the simulator.
async fn admin_cluster() -> Option<(Deployment, Instance, Instance, Browser)> {
    two_instances(vec![ada()], &admin_table(ADMIN_KEY)).await
}

/// POST /admin/users/{id}/{action} (`lock` or `unlock`) on `instance` with [`ADMIN_KEY`],
/// which must answer 204.
async fn admin_sets(browser: &Browser, instance: &Instance, id: &str, action: &str) {
    let url = instance.url(&format!("/admin/users/{id}/{action}"));
    let answer = as_admin(browser, ADMIN_KEY, "POST", url).await;
    let logs = instance.recent_logs();
    assert_eq!(answer.status(), StatusCode::NO_CONTENT, "{action}: {logs}");
}

#[tokio::test]
async fn a_lock_on_one_instance_holds_on_the_other_at_once_and_so_does_the_unlock() {
    let (_deployment, a, b, browser) = or_skip!(admin_cluster().await);
    let login = browser.login(a.base(), "583231").await;
    let id = user_id(&login);
    let bearer = access_token(&login);

    admin_sets(&browser, &a, &id, "lock").await;
    let me = browser.get(b.url("/users/me"), Some(&bearer)).await;
    assert_problem_code(me, 403, "UserLocked").await;
    let refreshed = browser
        .refresh(b.base(), login["refresh_token"].as_str().unwrap())
        .await;
    assert_problem_code(refreshed, 403, "UserLocked").await;
    let again = browser
        .login_across(b.base(), b.base(), "github", "583231")
        .await;
    assert_problem_code(again, 403, "UserLocked").await;

    admin_sets(&browser, &b, &id, "unlock").await;
    let back = browser.login(a.base(), "583231").await;
    assert_eq!(back["user"]["id"], id.as_str());
    let me = browser
        .get(b.url("/users/me"), Some(&access_token(&back)))
        .await;
    assert_eq!(me.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_lock_in_the_middle_of_a_refresh_race_leaves_no_token_alive() {
    let (_deployment, a, b, browser) = or_skip!(admin_cluster().await);
    let login = browser.login(a.base(), "583231").await;
    let id = user_id(&login);
    let second = browser.login(b.base(), "583231").await;
    let refreshed = Arc::new(AtomicUsize::new(0));

    // Two sessions of the user, each refreshed in a tight chain alternating instances,
    // until something refuses it.
    let chains: Vec<_> = [login, second]
        .into_iter()
        .map(|session| {
            let (browser, refreshed) = (browser.clone(), refreshed.clone());
            let bases = [a.base().to_owned(), b.base().to_owned()];
            tokio::spawn(async move {
                let mut issued = vec![session.clone()];
                let mut current = session;
                for turn in 0..MAX_REFRESHES {
                    let token = current["refresh_token"].as_str().unwrap().to_owned();
                    let response = browser.refresh(&bases[turn % 2], &token).await;
                    if response.status() != StatusCode::OK {
                        return (issued, problem_code(response).await);
                    }
                    current = response.json::<Value>().await.unwrap();
                    issued.push(current.clone());
                    refreshed.fetch_add(1, Ordering::Relaxed);
                }
                panic!("the chain never stopped: the lock did not end it");
            })
        })
        .collect();
    // The lock lands while both chains run.
    tokio::time::timeout(Duration::from_secs(60), async {
        while refreshed.load(Ordering::Relaxed) < 10 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the chains refresh");
    admin_sets(&browser, &b, &id, "lock").await;

    let mut last_tokens = Vec::new();
    for chain in chains {
        let (issued, ended) = tokio::time::timeout(Duration::from_secs(120), chain)
            .await
            .expect("the chain ends in time")
            .unwrap();
        assert_eq!(ended, (403, "UserLocked".to_owned()));
        // Whatever the race issued, before or while the lock committed, is dead everywhere.
        for session in &issued {
            for instance in [&a, &b] {
                let me = browser
                    .get(instance.url("/users/me"), Some(&access_token(session)))
                    .await;
                assert_problem_code(me, 403, "UserLocked").await;
            }
        }
        let last = issued.last().unwrap();
        last_tokens.push(last["refresh_token"].as_str().unwrap().to_owned());
    }
    admin_sets(&browser, &a, &id, "unlock").await;
    // Unlocking gives back logins, not the sessions the lock ended.
    for token in last_tokens {
        for instance in [&a, &b] {
            let after = browser.refresh(instance.base(), &token).await;
            assert_problem_code(after, 401, "InvalidCredentials").await;
        }
    }
}

#[tokio::test]
async fn an_admin_key_removed_from_the_configuration_is_refused_after_a_restart() {
    let deployment =
        or_skip!(Deployment::new(Database::Postgres, States::Redis, vec![ada()]).await);
    let browser = Browser::new();
    let before = deployment.spawn_instance_with(&admin_table(ADMIN_KEY));
    let listed = as_admin(&browser, ADMIN_KEY, "GET", before.url("/admin/users")).await;
    assert_eq!(listed.status(), StatusCode::OK);
    drop(before);

    let after = deployment.spawn_instance_with(&admin_table(NEW_KEY));
    let removed = as_admin(&browser, ADMIN_KEY, "GET", after.url("/admin/users")).await;
    assert_problem_code(removed, 401, "Unauthorized").await;
    let current = as_admin(&browser, NEW_KEY, "GET", after.url("/admin/users")).await;
    assert_eq!(current.status(), StatusCode::OK);
}

#[tokio::test]
async fn wrong_keys_on_one_instance_count_on_the_other() {
    let (_deployment, a, b, browser) = or_skip!(admin_cluster().await);
    for instance in [&a, &b].repeat(5) {
        let wrong = as_admin(&browser, NEW_KEY, "GET", instance.url("/admin/users")).await;
        assert_problem_code(wrong, 401, "Unauthorized").await;
    }
    for instance in [&a, &b] {
        let refused = as_admin(&browser, ADMIN_KEY, "GET", instance.url("/admin/users")).await;
        assert_problem_code(refused, 429, "RateLimited").await;
    }
}
