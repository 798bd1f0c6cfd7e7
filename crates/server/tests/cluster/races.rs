//! Races across two instances, each hammered by at least 20 concurrent attempts spread
//! over both processes. Only the database and Redis can settle these: the instances share
//! no memory.

use super::deployment::{Instance, or_skip, two_instances};
use super::flows::{Approval, access_token, assert_problem_code, problem_code, user_id};
use reqwest::StatusCode;
use serde_json::Value;
use social_login_simulator::SimUser;
use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

const ATTEMPTS: usize = 20;
/// Every race finishes well within this, or the test fails rather than hang.
const BOUND: Duration = Duration::from_secs(120);

fn person(id: usize) -> SimUser {
    SimUser::new(format!("{}", 7_000_000 + id), format!("person{id}"))
        .with_name(format!("Person {id}"))
        .with_email(format!("person{id}@example.com"), true)
}

/// Runs `attempt(i, base)` for i in 0..ATTEMPTS at once, alternating instances; the
/// outcomes by (status, code).
async fn hammer<F, Fut>(a: &Instance, b: &Instance, attempt: F) -> BTreeMap<(u16, String), usize>
where
    F: Fn(usize, String) -> Fut,
    Fut: Future<Output = reqwest::Response> + Send + 'static,
{
    let tasks: Vec<_> = (0..ATTEMPTS)
        .map(|i| {
            let base = if i % 2 == 0 { a.base() } else { b.base() };
            tokio::spawn(attempt(i, base.to_owned()))
        })
        .collect();
    tokio::time::timeout(BOUND, async {
        let mut outcomes = BTreeMap::new();
        for task in tasks {
            let response = task.await.unwrap();
            let key = match response.status().as_u16() {
                status @ 200..=299 => (status, String::new()),
                _ => problem_code(response).await,
            };
            *outcomes.entry(key).or_insert(0) += 1;
        }
        outcomes
    })
    .await
    .expect("the race finished in time")
}

/// One attempt won with `status`, every other lost with the problem `code`.
fn expect_one_winner(outcomes: &BTreeMap<(u16, String), usize>, status: u16, lost: (u16, &str)) {
    expect(outcomes, &[((status, ""), 1), (lost, ATTEMPTS - 1)]);
}

fn expect(outcomes: &BTreeMap<(u16, String), usize>, wanted: &[((u16, &str), usize)]) {
    let wanted: BTreeMap<(u16, String), usize> = wanted
        .iter()
        .map(|((status, code), count)| ((*status, (*code).to_owned()), *count))
        .collect();
    assert_eq!(outcomes, &wanted);
}

#[tokio::test]
async fn one_state_value_is_consumed_once() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    let approval = browser
        .approval(a.base(), "github", None, &person(0).id)
        .await;
    let outcomes = hammer(&a, &b, |_, base| {
        let (browser, approval) = (browser.clone(), approval.clone());
        async move { browser.callback(&base, "github", &approval).await }
    })
    .await;
    expect_one_winner(&outcomes, 200, (400, "OAuthStateMismatch"));
}

#[tokio::test]
async fn one_provider_account_connected_by_many_users_links_once() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    // Each user has a password and prepares a connect of the same GitHub account.
    let mut prepared: Vec<(String, Approval)> = Vec::new();
    for i in 0..ATTEMPTS {
        let base = if i % 2 == 0 { a.base() } else { b.base() };
        let registered = browser
            .register(base, &format!("user{i}@example.org"))
            .await;
        assert_eq!(registered.status(), StatusCode::CREATED);
        let bearer = access_token(&registered.json().await.unwrap());
        let approval = browser
            .approval(base, "github", Some(&bearer), &person(0).id)
            .await;
        prepared.push((bearer, approval));
    }
    let outcomes = hammer(&a, &b, |i, base| {
        let browser = browser.clone();
        let (bearer, approval) = prepared[i].clone();
        async move { browser.connect(&base, "github", &approval, &bearer).await }
    })
    .await;
    expect_one_winner(&outcomes, 201, (409, "ProviderAlreadyLinked"));
}

#[tokio::test]
async fn first_logins_of_one_new_provider_account_make_one_user() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    let mut approvals = Vec::new();
    for i in 0..ATTEMPTS {
        let base = if i % 2 == 0 { b.base() } else { a.base() };
        approvals.push(browser.approval(base, "github", None, &person(0).id).await);
    }
    let tasks: Vec<_> = approvals
        .into_iter()
        .enumerate()
        .map(|(i, approval)| {
            let base = if i % 2 == 0 {
                a.base().to_owned()
            } else {
                b.base().to_owned()
            };
            let browser = browser.clone();
            tokio::spawn(async move {
                let response = browser.callback(&base, "github", &approval).await;
                assert_eq!(response.status(), StatusCode::OK);
                response.json::<Value>().await.unwrap()
            })
        })
        .collect();
    let mut users = BTreeMap::new();
    let mut new_users = 0;
    for task in tasks {
        let login = tokio::time::timeout(BOUND, task).await.unwrap().unwrap();
        *users.entry(user_id(&login)).or_insert(0) += 1;
        new_users += usize::from(login["is_new_user"] == true);
    }
    assert_eq!(
        users.len(),
        1,
        "one user for one provider account: {users:?}"
    );
    assert_eq!(new_users, 1, "exactly one login registered it");
}

#[tokio::test]
async fn concurrent_disconnects_never_leave_a_user_without_a_login_method() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    // A user with GitHub and Google linked and no password.
    let login = browser.login(a.base(), &person(0).id).await;
    let bearer = access_token(&login);
    let approval = browser
        .approval(b.base(), "google", Some(&bearer), &person(0).id)
        .await;
    let linked = browser
        .connect(b.base(), "google", &approval, &bearer)
        .await;
    assert_eq!(linked.status(), StatusCode::CREATED);

    let outcomes = hammer(&a, &b, |i, base| {
        let (browser, bearer) = (browser.clone(), bearer.clone());
        let provider = if i % 4 < 2 { "github" } else { "google" };
        async move {
            browser
                .delete(format!("{base}/auth/oauth/{provider}/disconnect"), &bearer)
                .await
        }
    })
    .await;
    assert_eq!(
        outcomes.get(&(204, String::new())),
        Some(&1),
        "{outcomes:?}"
    );
    let refused: usize = outcomes
        .iter()
        .filter(|((status, code), _)| {
            (*status, code.as_str()) == (400, "LastLoginMethod")
                || (*status, code.as_str()) == (404, "OAuthAccountNotFound")
        })
        .map(|(_, count)| count)
        .sum();
    assert_eq!(refused, ATTEMPTS - 1, "{outcomes:?}");
    let accounts: Value = browser
        .get_json(format!("{}/auth/oauth/accounts", a.base()), Some(&bearer))
        .await;
    assert_eq!(accounts.as_array().unwrap().len(), 1, "one way in is left");
}

#[tokio::test]
async fn one_email_registered_concurrently_makes_one_user() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![], "").await);
    let outcomes = hammer(&a, &b, |_, base| {
        let browser = browser.clone();
        async move { browser.register(&base, "Same@Example.com").await }
    })
    .await;
    expect_one_winner(&outcomes, 201, (409, "EmailAlreadyRegistered"));
}

#[tokio::test]
async fn refresh_token_reuse_across_instances_revokes_the_family() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    let login = browser.login(a.base(), &person(0).id).await;
    let first = login["refresh_token"].as_str().unwrap().to_owned();
    let tasks: Vec<_> = (0..ATTEMPTS)
        .map(|i| {
            let base = if i % 2 == 0 {
                a.base().to_owned()
            } else {
                b.base().to_owned()
            };
            let (browser, first) = (browser.clone(), first.clone());
            tokio::spawn(async move { browser.refresh(&base, &first).await })
        })
        .collect();
    let mut successors = Vec::new();
    let mut refused = 0;
    for task in tasks {
        let response = tokio::time::timeout(BOUND, task).await.unwrap().unwrap();
        if response.status() == StatusCode::OK {
            let body: Value = response.json().await.unwrap();
            successors.push(body["refresh_token"].as_str().unwrap().to_owned());
        } else {
            assert_problem_code(response, 401, "InvalidCredentials").await;
            refused += 1;
        }
    }
    assert_eq!(successors.len(), 1, "one rotation wins");
    assert_eq!(refused, ATTEMPTS - 1);
    // The others were reuses of a rotated token: the whole family, the winner's new token
    // included, is revoked, on both instances.
    for instance in [&a, &b] {
        let response = browser.refresh(instance.base(), &successors[0]).await;
        assert_problem_code(response, 401, "InvalidCredentials").await;
    }
}

#[tokio::test]
async fn one_link_token_completes_once_whichever_instances_present_it() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![person(0)], "").await);
    let registered = browser.register(a.base(), "person0@example.com").await;
    assert_eq!(registered.status(), StatusCode::CREATED);
    let bearer = access_token(&registered.json().await.unwrap());
    let refused = browser
        .login_across(b.base(), a.base(), "google", &person(0).id)
        .await;
    assert_eq!(refused.status(), StatusCode::CONFLICT);
    let refused: Value = refused.json().await.unwrap();
    let link_token = refused["link_token"].clone();
    assert!(link_token.is_string(), "{refused}");
    let outcomes = hammer(&a, &b, |_, base| {
        let (browser, bearer, link_token) = (browser.clone(), bearer.clone(), link_token.clone());
        async move {
            let body = serde_json::json!({ "link_token": link_token });
            browser
                .post(format!("{base}/auth/link/complete"), &body, Some(&bearer))
                .await
        }
    })
    .await;
    expect_one_winner(&outcomes, 201, (400, "InvalidLinkToken"));
}
