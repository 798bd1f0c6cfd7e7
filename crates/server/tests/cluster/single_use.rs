//! What must hold across processes: an id_token accepted by one instance is refused by the
//! other (Redis holds it), and with the memory backend a state value from before a restart
//! is refused after it (the new process cannot know what the old one spent).

use super::deployment::{CLIENT_ID, Database, Deployment, States, ada, or_skip, two_instances};
use super::flows::{Browser, assert_problem_code};
use reqwest::StatusCode;
use serde_json::json;
use sha2::{Digest, Sha256};
use social_login_simulator::Provider;

const RAW_NONCE: &str = "7b0e4c1a-one-native-sign-in";

#[tokio::test]
async fn an_id_token_accepted_by_one_instance_is_refused_by_the_other() {
    let (deployment, a, b, browser) = or_skip!(two_instances(vec![ada()], "").await);
    let hashed = hex::encode(Sha256::digest(RAW_NONCE.as_bytes()));
    let id_token = deployment
        .sim
        .mint_id_token(Provider::Google, &ada(), CLIENT_ID, Some(&hashed));
    let body = json!({"id_token": id_token, "nonce": RAW_NONCE});

    let native = "/auth/oauth/google/id-token";
    let first = browser.post(a.url(native), &body, None).await;
    assert_eq!(first.status(), StatusCode::OK, "{}", a.recent_logs());
    for instance in [&b, &a] {
        let replay = browser.post(instance.url(native), &body, None).await;
        assert_problem_code(replay, 502, "OAuthUserInfoFailed").await;
    }
}

#[tokio::test]
async fn with_the_memory_backend_a_state_from_before_a_restart_is_refused_after_it() {
    let deployment = or_skip!(Deployment::new(Database::Sqlite, States::Memory, vec![ada()]).await);
    let browser = Browser::new();
    let before = deployment.spawn_instance();
    let approval = browser
        .approval(before.base(), "github", None, "583231")
        .await;
    // Spent before the restart, and not: neither may be used after it.
    let spent = browser
        .approval(before.base(), "github", None, "583231")
        .await;
    let login = browser.callback(before.base(), "github", &spent).await;
    assert_eq!(login.status(), StatusCode::OK);
    before.kill_hard();

    let after = deployment.spawn_instance();
    for old in [&approval, &spent] {
        let response = browser.callback(after.base(), "github", old).await;
        assert_problem_code(response, 400, "OAuthStateMismatch").await;
    }
    let fresh = browser.login(after.base(), "583231").await;
    assert_eq!(fresh["is_new_user"], false);
}
