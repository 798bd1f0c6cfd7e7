//! Finishing a link after 409, as a person meets it on the demo page: a password account,
//! then Google with the same address on another device (the page's session forgotten, not
//! ended), the 409 explained with "sign in to link", the password sign-in that completes the
//! link, and the sessions panel listing both sessions and ending the other one.

use crate::check;
use crate::demo_page::{READY, holds, linked, problem, reload_after, sign_out};
use crate::shots::Shots;
use crate::webdriver::Browser;

const EMAIL: &str = "lin@example.com";
const PASSWORD: &str = "correct horse battery staple";

/// Fills the demo's email and password fields.
async fn fill_password_form(browser: &Browser) {
    browser
        .eval(&format!(
            "document.querySelector('#password-email').value = '{EMAIL}'; \
             document.querySelector('#password-secret').value = '{PASSWORD}';"
        ))
        .await;
}

async fn sessions_listed(browser: &Browser) -> usize {
    let count = browser
        .eval("return document.querySelectorAll('#session-list li').length")
        .await;
    count.as_u64().unwrap_or(0) as usize
}

pub async fn a_provider_login_meets_a_password_account_and_links_after_its_sign_in(
    browser: &Browser,
    shots: &mut Shots,
) -> Result<(), String> {
    fill_password_form(browser).await;
    browser.click("#password-register").await?;
    let signed_in = format!("{READY} && !document.querySelector('#signed-in').hidden");
    shots
        .take_when(
            browser,
            "the new password account",
            &signed_in,
            "link-password-account",
        )
        .await?;

    // Another device: this page forgets its session (it stays live on the server).
    reload_after(browser, "localStorage.removeItem('social-login-demo');").await?;
    browser.click("#signin-google").await?;
    browser
        .wait_for(
            "the simulated Google's sign-in page",
            "return document.querySelector('#sim-continue') !== null",
        )
        .await?;
    browser
        .eval(&format!(
            "document.querySelector('#sim-name').value = 'Lin'; \
             document.querySelector('#sim-email').value = '{EMAIL}'; \
             document.querySelector('#sim-verified').checked = true;"
        ))
        .await;
    browser.click("#sim-continue").await?;
    let offered =
        format!("{READY} && location.pathname === '/' && !document.querySelector('#error').hidden");
    shots
        .take_when(browser, "the link offer", &offered, "link-offered")
        .await?;
    let shown = problem(browser).await.ok_or("no problem shown")?;
    check(
        shown.code == "EmailAlreadyRegistered" && shown.is_readable(),
        "the 409 is explained",
    )?;
    check(
        browser
            .text("#notice")
            .await
            .contains("Sign in to link Google"),
        "the page asks to sign in to link",
    )?;

    // The password sign-in completes the link.
    fill_password_form(browser).await;
    browser.click("#password-login").await?;
    let completed =
        format!("{READY} && document.querySelector('#notice').textContent.includes('is linked')");
    shots
        .take_when(browser, "the completed link", &completed, "link-completed")
        .await?;
    check(linked(browser).await == ["google"], "Google is linked")?;

    // Both sessions are listed; the other device's ends.
    browser
        .wait_for(
            "two sessions",
            "return document.querySelectorAll('#session-list li').length === 2",
        )
        .await?;
    browser
        .eval("document.querySelector('#sessions').scrollIntoView()")
        .await;
    shots.take(browser, "sessions-listed").await?;
    check(
        holds(
            browser,
            "return document.querySelector('#session-list li.current') !== null",
        )
        .await,
        "this browser's session is marked",
    )?;
    browser
        .click("#session-list li:not(.current) button")
        .await?;
    browser
        .wait_for(
            "one session left",
            "return document.querySelectorAll('#session-list li').length === 1",
        )
        .await?;
    check(
        sessions_listed(browser).await == 1,
        "the other session ended",
    )?;
    browser
        .eval("document.querySelector('#sessions').scrollIntoView()")
        .await;
    shots.take(browser, "session-ended").await?;
    sign_out(browser).await
}
