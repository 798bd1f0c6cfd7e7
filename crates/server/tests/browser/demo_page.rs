//! What a person does and sees on the demo page, as WebDriver calls.

use crate::shots::Shots;
use crate::webdriver::Browser;
use serde_json::Value;

/// The demo page sets `data-ready` once it has drawn what it knows.
pub const READY: &str = "return document.body.dataset.ready === 'true'";

/// Opens the demo page at `base` and waits for it to be drawn.
pub async fn open(browser: &Browser, base: &str) -> Result<(), String> {
    browser.goto(&format!("{base}/")).await;
    browser.wait_for("the demo page", READY).await
}

/// Runs `change` (a script that changes what the page stored), reloads the page and waits
/// for it to be drawn again.
pub async fn reload_after(browser: &Browser, change: &str) -> Result<(), String> {
    browser
        .eval(&format!(
            "{change} document.body.dataset.ready = 'false'; location.reload(); return true"
        ))
        .await;
    browser.wait_for("the page after the reload", READY).await
}

/// Whether `script` returns true now.
pub async fn holds(browser: &Browser, script: &str) -> bool {
    browser.eval(script).await == Value::Bool(true)
}

/// Whether the page has forgotten the tokens it kept.
pub async fn tokens_forgotten(browser: &Browser) -> bool {
    browser
        .eval("return localStorage.getItem('social-login-demo')")
        .await
        .is_null()
}

/// Waits until the signed-in user's link to `provider` is no longer listed.
pub async fn wait_unlinked(browser: &Browser, what: &str, provider: &str) -> Result<(), String> {
    let script = format!("return document.querySelector('#account-{provider}') === null");
    browser.wait_for(what, &script).await
}

/// Sign in on the demo page with `provider`, choosing `user` on the simulator's page.
pub async fn sign_in(browser: &Browser, provider: &str, user: &str) -> Result<(), String> {
    browser.click(&format!("#signin-{provider}")).await?;
    choose_identity(browser, user).await
}

/// On the simulator's sign-in page, choose `user`; waits for the demo page to settle.
pub async fn choose_identity(browser: &Browser, user: &str) -> Result<(), String> {
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

pub async fn sign_out(browser: &Browser) -> Result<(), String> {
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

/// The providers linked to the signed-in user, in the page's order.
pub async fn linked(browser: &Browser) -> Vec<String> {
    strings(
        browser,
        "return [...document.querySelectorAll('#accounts li.linked')]\
         .map(r => r.id.replace('account-', ''))",
    )
    .await
}

/// The recent events as `type provider` (or just `type`), newest first.
pub async fn events(browser: &Browser) -> Vec<String> {
    strings(
        browser,
        "return [...document.querySelectorAll('#events li[data-type]')]\
         .map(e => [e.dataset.type, e.dataset.provider].filter(Boolean).join(' '))",
    )
    .await
}

/// Waits for the drawn page to show a problem (`what` names the wait), saves the step's
/// shot and returns the problem.
pub async fn wait_for_problem(
    browser: &Browser,
    shots: &mut Shots,
    what: &str,
    step: &str,
) -> Result<Problem, String> {
    let script = format!("{READY} && !document.querySelector('#error').hidden");
    shots.take_when(browser, what, &script, step).await?;
    problem(browser)
        .await
        .ok_or_else(|| "no problem shown".to_owned())
}

/// Whether the recent events list every one of `wanted` (as [`events`] spells them).
pub async fn lists_events(browser: &Browser, wanted: &[&str]) -> bool {
    let listed = events(browser).await;
    wanted.iter().all(|event| listed.iter().any(|e| e == event))
}

/// The problem banner as a person reads it: title, code, detail, hint; `None` when hidden.
pub async fn problem(browser: &Browser) -> Option<Problem> {
    let shown = browser
        .eval(
            "const t = (id) => document.getElementById(id).hidden ? '' \
                 : document.getElementById(id).textContent; \
             return document.getElementById('error').hidden ? null : \
               {title: t('problem-title'), code: t('problem-code'), \
                detail: t('problem-detail'), hint: t('problem-hint')}",
        )
        .await;
    serde_json::from_value::<Option<Problem>>(shown)
        .ok()
        .flatten()
}

#[derive(Debug, serde::Deserialize)]
pub struct Problem {
    pub title: String,
    pub code: String,
    pub detail: String,
    pub hint: String,
}

impl Problem {
    /// Words, not a JSON document.
    pub fn is_readable(&self) -> bool {
        !self.title.is_empty()
            && [&self.title, &self.detail, &self.hint]
                .iter()
                .all(|text| !text.contains('{') && !text.contains("\":"))
    }
}

pub async fn strings(browser: &Browser, script: &str) -> Vec<String> {
    match browser.eval(script).await {
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().unwrap_or_default().to_owned())
            .collect(),
        other => panic!("not a list: {other}"),
    }
}

pub async fn attribute(browser: &Browser, css: &str, name: &str) -> String {
    let selector = serde_json::to_string(css).unwrap();
    let name = serde_json::to_string(name).unwrap();
    browser
        .eval(&format!(
            "const e = document.querySelector({selector}); \
             return e ? (e.getAttribute({name}) || '') : ''"
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

pub async fn visible(browser: &Browser, css: &str) -> bool {
    let selector = serde_json::to_string(css).unwrap();
    browser
        .eval(&format!(
            "const e = document.querySelector({selector}); \
             return !!e && e.getClientRects().length > 0"
        ))
        .await
        == Value::Bool(true)
}
