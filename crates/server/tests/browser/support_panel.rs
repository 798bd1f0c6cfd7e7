//! The demo page's Support panel: what an operator does with the admin API (find a user by
//! email, end their sessions, lock, unlock), and what the person sees of it.

use crate::demo_page::{events, open, problem, reload_after, sign_in, sign_out};
use crate::shots::Shots;
use crate::webdriver::Browser;
use crate::{check, check_text};

/// Types the admin key and the email, presses Find, waits for the user's row.
async fn find(browser: &Browser, admin_key: &str, email: &str) -> Result<(), String> {
    let fill = format!(
        "document.querySelector('#support-key').value = {}; \
         document.querySelector('#support-email').value = {}; \
         document.querySelector('#support-result').replaceChildren(); return true",
        serde_json::Value::from(admin_key),
        serde_json::Value::from(email),
    );
    browser.eval(&fill).await;
    browser.click("#support-find").await?;
    browser
        .wait_for(
            "the user's row",
            "return document.querySelector('#support-user') !== null",
        )
        .await
}

/// Waits for the user's row to say whether the user is locked.
async fn row_says_locked(browser: &Browser, what: &str, locked: bool) -> Result<(), String> {
    let script = format!(
        "const row = document.querySelector('#support-user'); \
         return row !== null && row.dataset.locked === '{locked}'"
    );
    browser.wait_for(what, &script).await
}

pub async fn walk(
    browser: &Browser,
    base: &str,
    admin_key: &str,
    shots: &mut Shots,
) -> Result<(), String> {
    open(browser, base).await?;
    sign_in(browser, "google", "1000001").await?;
    check_text(browser, "#user-name", "Grace Hopper", "Grace signed in").await?;

    find(browser, admin_key, "grace@example.com").await?;
    shots.take(browser, "support-found").await?;
    let row = browser.text("#support-user").await;
    check(
        row.contains("grace@example.com") && row.contains(" active session"),
        "the row shows the email and the session",
    )?;

    browser.click("#support-revoke").await?;
    browser
        .wait_for(
            "no session left",
            "const row = document.querySelector('#support-user'); \
             return row !== null && row.textContent.includes('0 active session')",
        )
        .await?;
    check(
        browser.text("#notice").await.contains("Every session"),
        "ending the sessions is announced",
    )?;

    browser.click("#support-lock").await?;
    row_says_locked(browser, "the row to say locked", true).await?;
    shots.take(browser, "support-locked").await?;

    // The person's page now refuses them, in words.
    reload_after(browser, "").await?;
    let refused = problem(browser)
        .await
        .ok_or("no problem shown to the locked user")?;
    check(
        refused.code == "UserLocked" && refused.is_readable(),
        "the locked user reads UserLocked",
    )?;
    shots.take(browser, "support-user-locked").await?;

    find(browser, admin_key, "grace@example.com").await?;
    browser.click("#support-unlock").await?;
    row_says_locked(browser, "the row to say unlocked", false).await?;

    // Unlocked: a new sign-in works, and the person sees what support did.
    sign_out(browser).await?;
    sign_in(browser, "google", "1000001").await?;
    check(
        browser.text("#user-name").await == "Grace Hopper" && problem(browser).await.is_none(),
        "Grace signs in again",
    )?;
    let listed = events(browser).await;
    for done in ["user.unlocked", "user.locked", "user.sessions_revoked"] {
        check(listed.contains(&done.to_owned()), done)?;
    }
    shots.take(browser, "support-events").await?;
    sign_out(browser).await
}
