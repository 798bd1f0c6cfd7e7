//! What a person does and sees on the demo page, as WebDriver calls.

use crate::webdriver::Browser;
use serde_json::Value;

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
