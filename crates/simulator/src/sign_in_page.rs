//! The browser sign-in page of the interactive simulator (the demo): on an authorize
//! request that names no user, show the known identities as cards and a form to type a new
//! one, in the provider's colours; choosing one repeats the same request with `sim_user`,
//! which every authorize honours.

use crate::config::Provider;
use crate::html::escape;
use crate::lock::locked;
use crate::state::SimState;
use axum::http::Uri;
use axum::response::{Html, IntoResponse, Response};
use std::fmt::Write;

const PAGE: &str = include_str!("sign_in_page.html");

/// The colour of a provider whose dialect names no brand.
const NEUTRAL: &str = "#495057";

/// The page for `provider`'s authorize request at `uri` (its full path and query).
pub fn render(sim: &SimState, provider: Provider, uri: &Uri) -> Response {
    let here = format!("{}?{}", uri.path(), uri.query().unwrap_or(""));
    let mut choices = String::new();
    for user in locked(&sim.directory).all() {
        let label = user.name.as_deref().unwrap_or(&user.login);
        let initial = label.chars().next().map(|c| c.to_uppercase().to_string());
        let email = user.email.as_deref().unwrap_or("no email");
        let verified = if user.email_verified {
            "verified"
        } else {
            "unverified"
        };
        // Writing to a String cannot fail.
        let _ = write!(
            choices,
            "<li><a class=\"user card\" data-user=\"{id}\" href=\"{here}&amp;sim_user={id}\">\
             <span class=\"initial\" aria-hidden=\"true\">{initial}</span>\
             <span class=\"who\"><strong>{label}</strong><small class=\"muted\">{email}</small></span>\
             <span class=\"badge {verified}\">{verified}</span></a></li>",
            id = escape(&user.id),
            here = escape(&here),
            initial = escape(&initial.unwrap_or_default()),
            label = escape(label),
            email = escape(email),
        );
    }
    let (name, background, text, edge) = match &provider.dialect().brand {
        Some(brand) => (
            brand.name.as_str(),
            brand.background.as_str(),
            brand.text.as_str(),
            brand.edge.as_deref().unwrap_or(&brand.background),
        ),
        None => (provider.prefix(), NEUTRAL, "#fff", NEUTRAL),
    };
    let page = PAGE
        .replace("{{PAGE_STYLE}}", crate::PAGE_STYLE)
        .replace("{{NAME}}", name)
        .replace("{{BG}}", background)
        .replace("{{FG}}", text)
        .replace("{{EDGE}}", edge)
        .replace("{{CHOICES}}", &choices)
        .replace("{{HERE}}", &escape(&here));
    Html(page).into_response()
}
