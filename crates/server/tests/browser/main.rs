//! The demo in a real browser: headless Chromium driven over WebDriver walks the flows a
//! person would, Apple's cross-site form_post included, and saves a screenshot after each
//! step (see `shots`). Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them); without them the test says SKIPPED (and fails when `CI` is set).

mod demo_page;
mod link_walk;
mod relay_walk;
mod shots;
mod signals_walk;
mod support_panel;
mod webdriver;

use demo_page::{
    attribute, choose_identity, events, holds, linked, lists_events, open, problem, reload_after,
    sign_in, sign_out, strings, tokens_forgotten, visible, wait_for_problem,
};
use shots::Shots;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use webdriver::{Browser, Driver};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The whole walk; each wait inside is bounded too.
const WALK_LIMIT: Duration = Duration::from_secs(360);

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

async fn walk(browser: &Browser, base: &str, shots: &mut Shots) -> Result<(), String> {
    refuses_a_foreign_callback(browser, base, shots).await?;
    signs_in_and_shows_the_card(browser, base, shots).await?;
    connects_disconnects_and_lists_events(browser, shots).await?;
    renews_a_refused_access_token(browser).await?;
    deletes_the_account(browser, shots).await?;
    apple_posts_the_name_once(browser, shots).await?;
    signs_in_with_a_provider_from_configuration(browser, shots).await?;
    signals_walk::signals_end_sessions_and_remove_links(browser, shots).await?;
    relay_walk::calls_the_providers_api_and_asks_again_after_a_revocation(browser, shots).await?;
    link_walk::a_provider_login_meets_a_password_account_and_links_after_its_sign_in(browser, shots)
        .await
}

/// Login CSRF: a callback this browser did not start signs nobody in, and says so in words.
async fn refuses_a_foreign_callback(
    browser: &Browser,
    base: &str,
    shots: &mut Shots,
) -> Result<(), String> {
    browser.goto(&attackers_callback_link(base).await).await;
    let refused = wait_for_problem(
        browser,
        shots,
        "the refused callback",
        "foreign-callback-refused",
    )
    .await?;
    check(
        refused.detail.contains("not started in this browser") && refused.is_readable(),
        "a foreign callback is refused, in words",
    )?;
    check(
        holds(
            browser,
            "return document.querySelector('#signed-in').hidden",
        )
        .await,
        "still signed out",
    )
}

async fn signs_in_and_shows_the_card(
    browser: &Browser,
    base: &str,
    shots: &mut Shots,
) -> Result<(), String> {
    open(browser, base).await?;
    shots.take(browser, "sign-in-buttons").await?;
    let labels = strings(
        browser,
        "return [...document.querySelectorAll('#signin-buttons button')].map(b => b.textContent)",
    )
    .await;
    check(
        labels
            == [
                "Sign in with Google",
                "Sign in with GitHub",
                "Sign in with Facebook",
                "Sign in with Microsoft",
                "Sign in with LinkedIn",
                "Sign in with Discord",
                "Sign in with X",
                "Sign in with Apple",
                "Sign in with Acme SSO",
                "Sign in with Corp OAuth",
            ],
        "a button per provider, by the name the provider list gives, in its order",
    )?;
    check(
        browser
            .eval("return document.querySelectorAll('#signin-buttons button .mark').length")
            .await
            == 10,
        "each button carries a mark",
    )?;
    let presets = social_login_provider_core::spec::presets().len();
    check(
        browser
            .eval("return document.querySelectorAll('#more-signin-buttons button').length")
            .await
            == presets,
        "every preset has a button behind \"more providers\"",
    )?;
    check_text(
        browser,
        "#more-signin-summary",
        &format!("{presets} more providers"),
        "the fold says how many it holds",
    )
    .await?;
    check_attribute(
        browser,
        "#signin-acme-sso .mark.initial",
        "data-initial",
        "A",
        "a provider from configuration is marked by its initial",
    )
    .await?;

    // Sign in with GitHub as Ada: a new user, verified email, no avatar: initials.
    browser.click("#signin-github").await?;
    shots
        .take_when(
            browser,
            "the simulator's sign-in page",
            "return document.querySelector(\"a.user[data-user='583231']\") !== null",
            "simulator-chooses-identity",
        )
        .await?;
    choose_identity(browser, "583231").await?;
    shots.take(browser, "signed-in-card").await?;
    check_text(browser, "#user-name", "Ada Lovelace", "signed in as Ada").await?;
    check_text(
        browser,
        "#user-email",
        "ada@example.com",
        "Ada's email on the card",
    )
    .await?;
    check(
        attribute(browser, "#verified-badge", "class").await == "badge verified"
            && browser.text("#verified-badge").await.contains("verified"),
        "the verified badge",
    )?;
    check(
        attribute(browser, "#is-new-user", "data-value").await == "true"
            && visible(browser, "#is-new-user").await,
        "Ada is new",
    )?;
    check_text(
        browser,
        "#avatar",
        "AL",
        "Ada's initials stand in for an avatar",
    )
    .await
}

async fn connects_disconnects_and_lists_events(
    browser: &Browser,
    shots: &mut Shots,
) -> Result<(), String> {
    check(
        events(browser).await == ["user.login github", "user.registered github"]
            || events(browser).await == ["user.registered github", "user.login github"],
        "registration and login listed",
    )?;

    // Connect Google (as Grace's Google account) and see both linked.
    browser.click("#connect-google").await?;
    choose_identity(browser, "1000001").await?;
    shots.take(browser, "google-connected").await?;
    check(linked(browser).await == ["google", "github"], "both linked")?;
    check(
        browser
            .text("#notice")
            .await
            .contains("Google is connected"),
        "the connection is announced",
    )?;
    let listed = events(browser).await;
    check(
        listed.first().map(String::as_str) == Some("account.linked google")
            && listed.contains(&"user.login github".to_owned())
            && listed.contains(&"user.registered github".to_owned()),
        "the events list the link, the login and the registration",
    )?;

    // Disconnect GitHub: Google remains.
    browser.click("#disconnect-github").await?;
    shots
        .take_when(
            browser,
            "GitHub to be gone",
            "return document.querySelector('#account-github') === null \
             && document.querySelector('#connect-github') !== null",
            "github-disconnected",
        )
        .await?;
    check(linked(browser).await == ["google"], "only Google left")?;
    check(
        events(browser).await.first().map(String::as_str) == Some("account.unlinked github"),
        "the unlink is the newest event",
    )?;

    // The last login method cannot go: the problem details are shown in words.
    browser.click("#disconnect-google").await?;
    let refused = wait_for_problem(
        browser,
        shots,
        "the problem details",
        "last-login-method-refused",
    )
    .await?;
    check(
        refused.code == "LastLoginMethod" && refused.is_readable() && !refused.detail.is_empty(),
        "LastLoginMethod shown with its title and detail",
    )?;
    check(linked(browser).await == ["google"], "Google still linked")?;

    // Signing in again through Google finds the same user, not a new one.
    sign_out(browser).await?;
    sign_in(browser, "google", "1000001").await?;
    check_text(browser, "#user-name", "Ada Lovelace", "Google finds Ada").await?;
    check(
        attribute(browser, "#is-new-user", "data-value").await == "false"
            && !visible(browser, "#is-new-user").await,
        "not new",
    )?;
    let listed = events(browser).await;
    check(
        listed.first().map(String::as_str) == Some("user.login google")
            && listed.contains(&"session.logout".to_owned()),
        "the new login and the sign-out listed",
    )?;
    shots.take(browser, "signed-in-again-with-google").await?;
    Ok(())
}

/// An access token that no longer works is renewed with the refresh token, once, and the
/// page carries on as if nothing happened.
async fn renews_a_refused_access_token(browser: &Browser) -> Result<(), String> {
    let before = browser
        .eval("return JSON.parse(localStorage.getItem('social-login-demo')).refresh_token")
        .await;
    reload_after(
        browser,
        "const s = JSON.parse(localStorage.getItem('social-login-demo')); \
         s.access_token = 'expired'; \
         localStorage.setItem('social-login-demo', JSON.stringify(s));",
    )
    .await?;
    check(
        browser.text("#user-name").await == "Ada Lovelace" && problem(browser).await.is_none(),
        "still signed in, no problem shown",
    )?;
    let after = browser
        .eval("return JSON.parse(localStorage.getItem('social-login-demo'))")
        .await;
    check(
        after["access_token"] != "expired" && after["refresh_token"] != before,
        "a new access token, and the refresh token rotated",
    )
}

/// Delete asks first; cancelling keeps everything, confirming deletes the account and
/// frees its provider accounts for a fresh registration.
async fn deletes_the_account(browser: &Browser, shots: &mut Shots) -> Result<(), String> {
    browser.click("#delete-account").await?;
    shots
        .take_when(
            browser,
            "the confirmation",
            "return document.querySelector('#confirm-delete').open",
            "delete-asks-first",
        )
        .await?;
    browser.click("#delete-cancel").await?;
    browser
        .wait_for(
            "the confirmation to close",
            "return !document.querySelector('#confirm-delete').open",
        )
        .await?;
    check(
        browser.text("#user-name").await == "Ada Lovelace" && linked(browser).await == ["google"],
        "cancel keeps the account",
    )?;

    browser.click("#delete-account").await?;
    browser.click("#delete-confirm").await?;
    shots
        .take_when(
            browser,
            "the account to be gone",
            "return !document.querySelector('#notice-banner').hidden \
             && !document.querySelector('#signed-out').hidden",
            "account-deleted",
        )
        .await?;
    check(
        browser.text("#notice").await.contains("account is deleted"),
        "the deletion is announced",
    )?;
    check(tokens_forgotten(browser).await, "the tokens are forgotten")?;

    // Grace's Google account is free again: it registers a new user, with her avatar.
    sign_in(browser, "google", "1000001").await?;
    shots
        .take_when(
            browser,
            "Grace's avatar to load",
            "const i = document.querySelector('#avatar img'); return !!i && i.complete && i.naturalWidth > 0",
            "new-user-with-avatar",
        )
        .await?;
    check_text(
        browser,
        "#user-name",
        "Grace Hopper",
        "a new user from the freed Google account",
    )
    .await?;
    let served = browser
        .eval(
            "return fetch(document.querySelector('#avatar img').src).then(r => \
             [r.headers.get('content-type'), r.headers.get('content-security-policy')])",
        )
        .await;
    check(
        served == serde_json::json!(["image/svg+xml", "default-src 'none'"]),
        "the demo serves the avatar as an inert SVG",
    )?;
    check_attribute(
        browser,
        "#is-new-user",
        "data-value",
        "true",
        "Grace is new",
    )
    .await?;
    sign_out(browser).await
}

async fn apple_posts_the_name_once(browser: &Browser, shots: &mut Shots) -> Result<(), String> {
    // Apple, first authorization: the name arrives once, in the form_post body.
    sign_in(browser, "apple", "1000002").await?;
    check_text(browser, "#user-name", "Alan Turing", "Apple name shown").await?;
    check_attribute(browser, "#is-new-user", "data-value", "true", "Alan is new").await?;
    check_attribute(
        browser,
        "#verified-badge",
        "class",
        "badge unverified",
        "Alan's email is not verified",
    )
    .await?;
    shots.take(browser, "apple-unverified-email").await?;

    // Apple again: no name is posted this time, and the stored one is kept.
    sign_out(browser).await?;
    sign_in(browser, "apple", "1000002").await?;
    check_text(browser, "#user-name", "Alan Turing", "Apple name kept").await?;
    check_attribute(
        browser,
        "#is-new-user",
        "data-value",
        "false",
        "Alan returns",
    )
    .await?;

    // Tokens that no longer work at all: the page says the session ended and offers sign-in.
    reload_after(
        browser,
        "localStorage.setItem('social-login-demo', JSON.stringify({access_token: 'x', \
         refresh_token: 'y', is_new_user: false}));",
    )
    .await?;
    shots.take(browser, "session-ended").await?;
    let ended = problem(browser).await.ok_or("no problem shown")?;
    check(
        ended.title == "Your session has ended" && visible(browser, "#signin-google").await,
        "an ended session says so and offers sign-in",
    )?;
    check(
        tokens_forgotten(browser).await,
        "the dead tokens are forgotten",
    )
}

/// "Acme SSO" is no built-in provider: the operator configured it (`kind = "oidc"`, the
/// simulator's standard OpenID provider); a person signs in with it like with any other.
async fn signs_in_with_a_provider_from_configuration(
    browser: &Browser,
    shots: &mut Shots,
) -> Result<(), String> {
    sign_in(browser, "acme-sso", "583231").await?;
    shots.take(browser, "signed-in-with-acme-sso").await?;
    let name = browser.text("#user-name").await;
    check(name == "Ada Lovelace", "Acme SSO signs Ada in")?;
    check(
        linked(browser).await == ["acme-sso"]
            && browser.text("#account-acme-sso .name").await == "Acme SSO",
        "the link listed under its key, shown by its display name",
    )?;
    check(
        lists_events(
            browser,
            &["user.registered acme-sso", "user.login acme-sso"],
        )
        .await,
        "the registration and the login listed",
    )?;
    sign_out(browser).await
}

fn check(condition: bool, what: &str) -> Result<(), String> {
    condition
        .then_some(())
        .ok_or_else(|| format!("expected: {what}"))
}

/// Checks that the element at `css` reads `expected`.
async fn check_text(
    browser: &Browser,
    css: &str,
    expected: &str,
    what: &str,
) -> Result<(), String> {
    check(browser.text(css).await == expected, what)
}

/// Checks that the element at `css` has attribute `name` set to `expected`.
async fn check_attribute(
    browser: &Browser,
    css: &str,
    name: &str,
    expected: &str,
    what: &str,
) -> Result<(), String> {
    check(attribute(browser, css, name).await == expected, what)
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
    let mut shots = Shots::new();
    let outcome = tokio::time::timeout(WALK_LIMIT, async {
        walk(&browser, demo.url(), &mut shots).await?;
        support_panel::walk(&browser, demo.url(), demo.admin_key(), &mut shots).await
    })
    .await
    .unwrap_or_else(|_| Err(format!("the walk took over {WALK_LIMIT:?}")));
    if let Err(error) = outcome {
        let shot = shots.take(&browser, "failure").await;
        panic!("{error}; screenshot: {shot:?}");
    }
    browser.quit().await;
    demo.stop().await.unwrap();
}
