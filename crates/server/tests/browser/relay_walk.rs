//! The demo's "Call the provider's API" panel: the page asks this service to call the
//! simulated provider's API for the signed-in person, sees the answer (never the provider's
//! token), then, once the simulated provider revoked the app, sees the 409 that asks for a
//! new connect, connects again, and calls successfully.

use crate::check;
use crate::demo_page::{
    READY, choose_identity, holds, lists_events, sign_in, sign_out, wait_for_problem,
};
use crate::shots::Shots;
use crate::webdriver::Browser;

/// Alan: his unverified email claims nothing any other step of the walk holds.
const PERSON: &str = "1000002";

async fn call(browser: &Browser) -> Result<(), String> {
    browser.click("#relay-call").await?;
    Ok(())
}

pub async fn calls_the_providers_api_and_asks_again_after_a_revocation(
    browser: &Browser,
    shots: &mut Shots,
) -> Result<(), String> {
    sign_in(browser, "discord", PERSON).await?;
    check(
        browser
            .eval("return document.querySelector('#relay-provider').value")
            .await
            == "discord",
        "Discord is the provider to call",
    )?;

    call(browser).await?;
    let answered = format!(
        "{READY} && !document.querySelector('#relay-result').hidden \
         && document.querySelector('#relay-result').textContent.includes('\"provider\": \"discord\"')"
    );
    shots
        .take_when(browser, "the API's answer", &answered, "relay-called")
        .await?;
    let shown = browser.text("#relay-result").await;
    check(shown.contains(PERSON), "the answer is about Alan")?;
    check(
        !holds(
            browser,
            "return document.body.innerHTML.includes('access_token\":')",
        )
        .await,
        "no provider token on the page",
    )?;

    // The simulated provider drops every grant: the next call cannot be refreshed.
    browser.click("#relay-revoke").await?;
    browser
        .wait_for(
            "the revocation to be announced",
            "return !document.querySelector('#notice-banner').hidden",
        )
        .await?;
    call(browser).await?;
    let refused = wait_for_problem(
        browser,
        shots,
        "the reauthorization problem",
        "relay-reauthorization-required",
    )
    .await?;
    check(
        refused.code == "ProviderReauthorizationRequired" && refused.is_readable(),
        "the 409 is shown in words",
    )?;
    check(
        holds(
            browser,
            "return !document.querySelector('#relay-reconnect').hidden",
        )
        .await,
        "the page offers to connect again",
    )?;
    check(
        lists_events(browser, &["provider.reauthorization_required discord"]).await,
        "the activity names it",
    )?;

    // Connecting the same Discord account again renews its tokens; the call works.
    browser.click("#relay-reconnect").await?;
    choose_identity(browser, PERSON).await?;
    call(browser).await?;
    shots
        .take_when(
            browser,
            "the API's answer again",
            &answered,
            "relay-called-again",
        )
        .await?;
    sign_out(browser).await
}
