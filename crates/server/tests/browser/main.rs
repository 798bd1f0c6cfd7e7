//! The demo in a real browser: headless Chromium driven over WebDriver walks the flows a
//! person would, Apple's cross-site form_post included. Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them);
//! without them the test says SKIPPED (and fails when `CI` is set). A failing step leaves a screenshot in the temp dir
//! and names it.

mod webdriver;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use webdriver::{Browser, Driver};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Sign in on the demo page with `provider`, choosing `user` on the simulator's page.
async fn sign_in(browser: &Browser, provider: &str, user: &str) -> Result<(), String> {
    browser.click(&format!("#signin-{provider}")).await?;
    choose_identity(browser, user).await
}

async fn choose_identity(browser: &Browser, user: &str) -> Result<(), String> {
    browser
        .click(&format!("a.user[data-user='{user}']"))
        .await?;
    browser
        .wait_for(
            "the demo page to settle",
            "return document.body.dataset.ready === 'true' && location.pathname === '/'",
        )
        .await
}

async fn linked(browser: &Browser) -> Vec<String> {
    browser
        .eval("return [...document.querySelectorAll('#accounts tr')].map(r => r.id)")
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|id| {
            id.as_str()
                .unwrap()
                .trim_start_matches("account-")
                .to_owned()
        })
        .collect()
}

/// An attacker's own finished sign-in, as the link they would send a victim: the demo's
/// callback page with the attacker's code and state (made over plain HTTP, not in the
/// victim's browser).
async fn attackers_callback_link(base: &str) -> String {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let authorize: serde_json::Value = http
        .get(format!("{base}/auth/oauth/github/authorize"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = authorize["authorization_url"].as_str().unwrap();
    let approved = http
        .get(format!("{url}&sim_user=1000001"))
        .send()
        .await
        .unwrap();
    approved.headers()["location"].to_str().unwrap().to_owned()
}

async fn walk(browser: &Browser, base: &str) -> Result<(), String> {
    // Login CSRF: a callback this browser did not start signs nobody in.
    browser.goto(&attackers_callback_link(base).await).await;
    browser
        .wait_for(
            "the refused callback",
            "return document.body.dataset.ready === 'true' && !document.querySelector('#error').hidden",
        )
        .await?;
    check(
        browser
            .text("#problem")
            .await
            .contains("not started in this browser"),
        "a foreign callback is refused",
    )?;
    check(
        browser
            .eval("return document.querySelector('#signed-in').hidden")
            .await
            == serde_json::Value::Bool(true),
        "still signed out",
    )?;

    browser.goto(&format!("{base}/")).await;
    browser
        .wait_for(
            "the demo page",
            "return document.body.dataset.ready === 'true'",
        )
        .await?;

    // Sign in with GitHub as Ada: a new user.
    sign_in(browser, "github", "583231").await?;
    check(
        browser.text("#user-name").await == "Ada Lovelace",
        "signed in as Ada",
    )?;
    check(browser.text("#is-new-user").await == "true", "Ada is new")?;

    // Connect Google (as Grace's Google account) and see both linked.
    browser.click("#connect-google").await?;
    choose_identity(browser, "1000001").await?;
    check(linked(browser).await == ["github", "google"], "both linked")?;

    // Disconnect GitHub: Google remains.
    browser.click("#disconnect-github").await?;
    browser
        .wait_for(
            "GitHub to be gone",
            "return document.querySelector('#account-github') === null",
        )
        .await?;
    check(linked(browser).await == ["google"], "only Google left")?;

    // The last login method cannot go: the problem details are shown.
    browser.click("#disconnect-google").await?;
    browser
        .wait_for(
            "the problem details",
            "return !document.querySelector('#error').hidden",
        )
        .await?;
    check(
        browser.text("#problem").await.contains("LastLoginMethod"),
        "LastLoginMethod shown",
    )?;

    // Signing in again through Google finds the same user, not a new one.
    sign_out(browser).await?;
    sign_in(browser, "google", "1000001").await?;
    check(
        browser.text("#user-name").await == "Ada Lovelace",
        "Google finds Ada",
    )?;
    check(browser.text("#is-new-user").await == "false", "not new")?;

    // Apple, first authorization: the name arrives once, in the form_post body.
    sign_out(browser).await?;
    sign_in(browser, "apple", "1000002").await?;
    check(
        browser.text("#user-name").await == "Alan Turing",
        "Apple name shown",
    )?;
    check(browser.text("#is-new-user").await == "true", "Alan is new")?;

    // Apple again: no name is posted this time, and the stored one is kept.
    sign_out(browser).await?;
    sign_in(browser, "apple", "1000002").await?;
    check(
        browser.text("#user-name").await == "Alan Turing",
        "Apple name kept",
    )?;
    check(
        browser.text("#is-new-user").await == "false",
        "Alan returns",
    )?;
    Ok(())
}

async fn sign_out(browser: &Browser) -> Result<(), String> {
    browser.click("#sign-out").await?;
    browser
        .wait_for(
            "the sign-in buttons",
            "return document.body.dataset.ready === 'true' \
             && document.querySelector('#signin-apple') !== null \
             && !document.querySelector('#signed-out').hidden",
        )
        .await
}

fn check(condition: bool, what: &str) -> Result<(), String> {
    condition
        .then_some(())
        .ok_or_else(|| format!("expected: {what}"))
}

async fn fail_with_screenshot(browser: &Browser, error: String) -> ! {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "social-login-browser-failure-{}.png",
        std::process::id()
    ));
    browser.screenshot(&path).await;
    panic!("{error}; screenshot: {}", path.display());
}

#[tokio::test]
async fn a_person_signs_in_connects_and_disconnects_in_a_real_browser() {
    if !Path::new(CHROMEDRIVER).exists() || !Path::new("/usr/bin/chromium").exists() {
        let why = "headless browser test needs Debian's chromium and chromium-driver \
                   (.ci/run installs them)";
        assert!(std::env::var_os("CI").is_none(), "{why}, and CI is set");
        social_login_test_support::skipped(why);
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let demo = social_login::demo::start(bind, data.path()).await.unwrap();
    let driver = Driver::start(CHROMEDRIVER);
    let browser = driver.session(profile.path()).await;
    let outcome = walk(&browser, demo.url()).await;
    if let Err(error) = outcome {
        fail_with_screenshot(&browser, error).await;
    }
    browser.quit().await;
    demo.stop().await.unwrap();
}
