//! Two instances behind one load balancer: any step of a flow may land on either.

use super::deployment::{ada, or_skip, two_instances};
use super::flows::{access_token, assert_problem_code};
use reqwest::StatusCode;
use serde_json::Value;

#[tokio::test]
async fn a_login_started_on_one_instance_finishes_on_the_other_and_never_replays() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![ada()], "").await);

    let approval = browser.approval(a.base(), "github", None, "583231").await;
    let response = browser.callback(b.base(), "github", &approval).await;
    assert_eq!(response.status(), StatusCode::OK, "{}", b.recent_logs());
    let login: Value = response.json().await.unwrap();
    assert_eq!(login["is_new_user"], true);

    for instance in [&a, &b] {
        let replay = browser.callback(instance.base(), "github", &approval).await;
        assert_problem_code(replay, 400, "OAuthStateMismatch").await;
    }
}

#[tokio::test]
async fn tokens_issued_by_one_instance_work_on_the_other() {
    let (_deployment, a, b, browser) = or_skip!(two_instances(vec![ada()], "").await);
    let login = browser.login(a.base(), "583231").await;
    let bearer = access_token(&login);

    let me = browser
        .get(format!("{}/users/me", b.base()), Some(&bearer))
        .await;
    assert_eq!(me.status(), StatusCode::OK);
    let me: Value = me.json().await.unwrap();
    assert_eq!(me["id"], login["user"]["id"]);

    // A connect started on b with a's token, finished on a.
    let approval = browser
        .approval(b.base(), "google", Some(&bearer), "583231")
        .await;
    let linked = browser
        .connect(a.base(), "google", &approval, &bearer)
        .await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let accounts: Value = browser
        .get_json(format!("{}/auth/oauth/accounts", b.base()), Some(&bearer))
        .await;
    assert_eq!(accounts.as_array().unwrap().len(), 2);

    // The refresh chain moves between instances; the old link of it is dead everywhere.
    let first = login["refresh_token"].as_str().unwrap().to_owned();
    let refreshed = browser.refresh(b.base(), &first).await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let refreshed: Value = refreshed.json().await.unwrap();
    let second = refreshed["refresh_token"].as_str().unwrap().to_owned();
    let again = browser.refresh(a.base(), &second).await;
    assert_eq!(again.status(), StatusCode::OK);
    let reused = browser.refresh(a.base(), &first).await;
    assert_problem_code(reused, 401, "InvalidCredentials").await;
}
