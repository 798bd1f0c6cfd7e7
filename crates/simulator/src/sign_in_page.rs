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

/// A provider's name and colours on its page: background, text, and a button's edge.
struct Brand {
    name: &'static str,
    background: &'static str,
    text: &'static str,
    edge: &'static str,
}

const fn brand(name: &'static str, background: &'static str, text: &'static str) -> Brand {
    Brand {
        name,
        background,
        text,
        edge: background,
    }
}

fn brand_of(provider: Provider) -> Brand {
    match provider {
        Provider::Google => Brand {
            edge: "#c6c9cf",
            ..brand("Google", "#fff", "#1f1f1f")
        },
        Provider::Github => brand("GitHub", "#24292f", "#fff"),
        Provider::Facebook => brand("Facebook", "#1877F2", "#fff"),
        Provider::Microsoft => brand("Microsoft", "#2f2f2f", "#fff"),
        Provider::Linkedin => brand("LinkedIn", "#0A66C2", "#fff"),
        Provider::Discord => brand("Discord", "#5865F2", "#fff"),
        Provider::Twitter => brand("X", "#000", "#fff"),
        Provider::Apple => brand("Apple", "#000", "#fff"),
        Provider::StandardOidc => brand("an OpenID provider", "#3b5bdb", "#fff"),
        Provider::StandardOauth2 => brand("an OAuth 2.0 provider", "#0c8599", "#fff"),
    }
}

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
    let brand = brand_of(provider);
    let page = PAGE
        .replace("{{PAGE_STYLE}}", crate::PAGE_STYLE)
        .replace("{{NAME}}", brand.name)
        .replace("{{BG}}", brand.background)
        .replace("{{FG}}", brand.text)
        .replace("{{EDGE}}", brand.edge)
        .replace("{{CHOICES}}", &choices)
        .replace("{{HERE}}", &escape(&here));
    Html(page).into_response()
}
