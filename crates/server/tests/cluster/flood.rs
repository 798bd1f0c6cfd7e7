//! An authorize flood of any size leaves every login working, with bounded memory: issuing a
//! state value stores nothing, so the flood has nothing to fill.

use super::deployment::{Database, Deployment, States, or_skip};
use super::flows::Browser;
use reqwest::StatusCode;
use social_login_simulator::SimUser;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const FLOOD: usize = 300_000;
const WORKERS: usize = 32;
/// The flood must be through within this, or the test fails rather than run on.
const BOUND: Duration = Duration::from_secs(600);
/// What the flood may add to the service's resident memory. A store that kept each issued
/// value (~300 bytes) would need ~90 MiB for this flood.
const RSS_GROWTH_LIMIT_KIB: u64 = 16 * 1024;

fn person(id: &str) -> SimUser {
    SimUser::new(id, format!("user{id}")).with_email(format!("{id}@example.com"), true)
}

#[tokio::test]
async fn an_authorize_flood_leaves_logins_working_and_memory_flat() {
    let users = vec![person("9000001"), person("9000002")];
    let deployment = or_skip!(Deployment::new(Database::Sqlite, States::Memory, users).await);
    let instance = deployment.spawn_instance();
    let browser = Browser::new();
    let base = instance.base().to_owned();
    let url = format!("{base}/auth/oauth/github/authorize");

    // A login started before the flood, and a warm-up so the baseline is a serving process.
    let started_before = browser.authorize(&base, "github", None).await;
    flood(&browser, &url, 2_000).await;
    let rss_before = instance.rss_kib();

    let sent = tokio::time::timeout(BOUND, flood(&browser, &url, FLOOD))
        .await
        .expect("the flood finished in time");
    assert_eq!(sent, FLOOD);
    let rss_after = instance.rss_kib();
    assert!(
        rss_after <= rss_before + RSS_GROWTH_LIMIT_KIB,
        "RSS grew from {rss_before} KiB to {rss_after} KiB"
    );

    let approval = browser.approve(&started_before, "9000001").await;
    let response = browser.callback(&base, "github", &approval).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "login started before the flood"
    );
    let response = browser
        .login_across(&base, &base, "github", "9000002")
        .await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "login started after the flood"
    );
}

/// `count` anonymous authorize requests over `WORKERS` keep-alive connections; each must be
/// a 200. Returns how many were answered.
async fn flood(browser: &Browser, url: &str, count: usize) -> usize {
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (http, url, next) = (browser.http.clone(), url.to_owned(), next.clone());
            tokio::spawn(async move {
                let mut answered = 0;
                while next.fetch_add(1, Ordering::Relaxed) < count {
                    let response = http.get(&url).send().await.expect("answered");
                    assert_eq!(response.status(), StatusCode::OK);
                    // Read the body so the connection is reused.
                    response.bytes().await.expect("body");
                    answered += 1;
                }
                answered
            })
        })
        .collect();
    let mut answered = 0;
    for worker in workers {
        answered += worker.await.unwrap();
    }
    answered
}
