//! The demo page at `/`, the callback page the providers redirect back to, and a
//! simulated identity's avatar.
//!
//! Apple answers with a cross-site `form_post`; the page it lands on carries the posted
//! fields to the script, which sends them on as `post_body` (docs/providers.md#apple).

use axum::Router;
use axum::extract::Form;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The page, in the simulator's look (one stylesheet for both, no copy).
static PAGE: LazyLock<String> = LazyLock::new(|| {
    include_str!("page.html").replace("{{PAGE_STYLE}}", social_login_simulator::PAGE_STYLE)
});
const AVATAR: &str = include_str!("avatar.svg");

/// Where the demo serves the avatar of a simulated identity: on the demo itself, so the
/// page works offline.
pub const AVATAR_PATH: &str = "/demo/avatar.svg";

/// `/`, `/demo/callback/{provider}` for GET and POST, and the avatar. The page lists the
/// providers as any client would: `GET /auth/oauth/providers`.
pub fn routes() -> Router {
    Router::new()
        .route("/", get(page))
        .route("/demo/callback/{provider}", get(page).post(form_post))
        .route(AVATAR_PATH, get(avatar))
}

/// A static picture; the CSP keeps an SVG opened on its own from running anything.
async fn avatar() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CONTENT_SECURITY_POLICY, "default-src 'none'"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        AVATAR,
    )
}

async fn page() -> impl IntoResponse {
    Html(PAGE.replace("{{FORM_POST}}", "null"))
}

/// Apple's `form_post`: hand the fields to the script, as JSON safe inside `<script>`.
async fn form_post(Form(fields): Form<BTreeMap<String, String>>) -> impl IntoResponse {
    let json = serde_json::to_string(&fields)
        .unwrap_or_else(|_| "null".to_owned())
        .replace('<', "\\u003c");
    Html(PAGE.replace("{{FORM_POST}}", &json))
}

#[cfg(test)]
mod tests {
    use super::PAGE;

    #[test]
    fn the_page_wears_the_simulators_stylesheet_and_no_copy_of_it() {
        assert!(PAGE.contains(social_login_simulator::PAGE_STYLE));
        assert!(!PAGE.contains("{{PAGE_STYLE}}"));
        assert_eq!(PAGE.matches("--accent:").count(), 1, "the palette once");
    }
}
