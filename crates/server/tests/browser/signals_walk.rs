//! The demo's signal buttons, one of each: the simulator, acting as Apple, Meta or Google,
//! signs the signal about the signed-in person's linked account and sends it to the
//! service; the page shows the effect (a session that ends, a link that goes, the activity
//! list naming the signal).

use crate::check;
use crate::demo_page::{
    choose_identity, holds, linked, lists_events, problem, sign_in, sign_out, wait_unlinked,
};
use crate::shots::Shots;
use crate::webdriver::Browser;

/// A simulated person with no email, so no other account of the walk claims theirs.
const PERSON: &str = "1000003";

async fn connect(browser: &Browser, provider: &str) -> Result<(), String> {
    browser.click(&format!("#connect-{provider}")).await?;
    choose_identity(browser, PERSON).await?;
    check(
        linked(browser).await.iter().any(|p| p == provider),
        &format!("{provider} connected"),
    )
}

/// Clicks a signal's button and waits for the page to say what the provider did.
async fn send(browser: &Browser, kind: &str) -> Result<String, String> {
    browser.click(&format!("#signal-{kind}")).await?;
    browser
        .wait_for(
            "the signal's outcome",
            "return !document.querySelector('#notice-banner').hidden \
             && document.querySelector('#notice').textContent.length > 0",
        )
        .await?;
    Ok(browser.text("#notice").await)
}

async fn signed_out(browser: &Browser) -> bool {
    holds(
        browser,
        "return !document.querySelector('#signed-out').hidden",
    )
    .await
}

pub async fn signals_end_sessions_and_remove_links(
    browser: &Browser,
    shots: &mut Shots,
) -> Result<(), String> {
    sign_in(browser, "google", PERSON).await?;
    check(
        holds(
            browser,
            "return document.querySelector('#signal-revoke_consent').disabled",
        )
        .await,
        "Apple's buttons wait for an Apple account",
    )?;
    connect(browser, "facebook").await?;
    connect(browser, "apple").await?;
    connect(browser, "github").await?;
    shots.take(browser, "signal-buttons").await?;

    // Meta: data deletion removes the Facebook link; this session goes on.
    let said = send(browser, "request_data_deletion").await?;
    check(
        said.contains("Meta asked"),
        "the deletion request is announced",
    )?;
    wait_unlinked(browser, "Facebook to be gone", "facebook").await?;
    check(
        lists_events(
            browser,
            &[
                "provider.data_deletion_requested facebook",
                "account.unlinked facebook",
            ],
        )
        .await,
        "the activity names Meta's request and the link it removed",
    )?;
    shots.take(browser, "signal-data-deletion").await?;

    // Apple: consent revoked ends the sessions that began with Apple, and only those.
    sign_out(browser).await?;
    sign_in(browser, "apple", PERSON).await?;
    let said = send(browser, "revoke_consent").await?;
    check(
        said.contains("ended this session") && signed_out(browser).await,
        "revoking consent at Apple ended the Apple session",
    )?;
    shots.take(browser, "signal-consent-revoked").await?;
    sign_in(browser, "google", PERSON).await?;
    check(
        lists_events(browser, &["provider.consent_revoked apple"]).await
            && linked(browser).await.contains(&"apple".to_owned()),
        "the activity names it; the Apple link stays",
    )?;

    // Apple: the Apple Account deleted removes its link.
    let said = send(browser, "delete_apple_account").await?;
    check(said.contains("Apple Account is deleted"), "announced")?;
    wait_unlinked(browser, "Apple to be gone", "apple").await?;
    check(
        lists_events(browser, &["provider.account_deleted apple"]).await,
        "the activity names Apple's deletion",
    )?;
    shots.take(browser, "signal-apple-account-deleted").await?;

    // Google: a hijacked account ends every session and signs nobody in through it.
    let said = send(browser, "report_hijacking").await?;
    check(
        said.contains("hijacked") && signed_out(browser).await,
        "the hijacking report ended the session",
    )?;
    sign_in(browser, "google", PERSON).await?;
    let refused = problem(browser).await.ok_or("no problem shown")?;
    check(
        refused.code == "ProviderAccountDisabled" && signed_out(browser).await,
        "the hijacked Google account signs nobody in",
    )?;
    shots.take(browser, "signal-google-disabled").await?;
    sign_in(browser, "github", PERSON).await?;
    check(
        lists_events(browser, &["provider.security_event google"]).await,
        "the activity names Google's report",
    )?;
    sign_out(browser).await
}
