//! `response_mode=form_post`: the auto-submitting page Apple answers the authorize request
//! with, and [`AppleFormPost`], which reads it back so a test can "submit" it.

use crate::html::escape;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::fmt::Write;

/// The page that makes the browser POST `fields` (form-urlencoded) to `action` at once.
/// Every value is HTML-escaped: `state` is the client's text and `user` is JSON.
pub fn render(action: &str, fields: &[(&str, &str)]) -> Response {
    let mut inputs = String::new();
    for (name, value) in fields {
        // Writing to a String cannot fail.
        let _ = writeln!(
            inputs,
            r#"<input type="hidden" name="{}" value="{}">"#,
            escape(name),
            escape(value)
        );
    }
    let page = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Sign in with Apple (simulated)</title>\n\
         <style>{style}\nmain {{ max-width: 30rem; margin: 3rem auto; padding: 0 1.25rem; }}</style></head>\n\
         <body onload=\"document.forms[0].submit()\"><main class=\"card\">\n\
         <p class=\"muted\">Returning to the app…</p>\n\
         <form method=\"post\" action=\"{action}\" enctype=\"application/x-www-form-urlencoded\">\n\
         {inputs}<noscript><button class=\"btn\" type=\"submit\">Continue</button></noscript>\n\
         </form></main></body></html>\n",
        style = crate::PAGE_STYLE,
        action = escape(action),
    );
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response()
}

/// The form on an authorize answer page: where the browser would POST, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppleFormPost {
    /// The redirect URI the form posts to.
    pub action: String,
    /// The fields in page order: `code`, `state`, (`id_token`), (`user`), or `error`, `state`.
    pub fields: Vec<(String, String)>,
}

impl AppleFormPost {
    /// Reads the page the simulated Apple's authorize endpoint answered; `None` when it is
    /// not such a page (an error page, a redirect body).
    pub fn parse(html: &str) -> Option<Self> {
        let form = &html[html.find("<form ")?..];
        let action = attribute(&form[..form.find('>')?], "action")?;
        let fields = form
            .split("<input ")
            .skip(1)
            .filter_map(|input| {
                let tag = &input[..input.find('>')?];
                Some((attribute(tag, "name")?, attribute(tag, "value")?))
            })
            .collect();
        Some(Self { action, fields })
    }

    /// The value of the field `name`, if the form has it.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    /// The fields form-urlencoded: the body the browser would send.
    pub fn body(&self) -> String {
        serde_urlencoded::to_string(&self.fields).unwrap_or_default()
    }
}

/// The unescaped value of `name="…"` in one tag.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let length = tag[start..].find('"')?;
    Some(unescape(&tag[start..start + length]))
}

/// The inverse of [`escape`]; `&amp;` last, so `&amp;quot;` stays `&quot;`.
fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}
