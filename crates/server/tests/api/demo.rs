//! `social-login demo`: the page, the simulator's sign-in page, the redirect back, Apple's
//! form_post handed to the page, the two providers from configuration after the eight, and
//! every preset after them.

use crate::helpers::{as_user, body_text};
use serde_json::Value;
use social_login_provider_core::spec::presets;
use std::net::SocketAddr;

/// Starts the demo on a free loopback port in a temp dir: the demo, its base URL, a
/// client from [`http`], and the temp dir, which the caller keeps to the end.
pub(crate) async fn start_demo() -> (
    social_login::demo::RunningDemo,
    String,
    reqwest::Client,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let demo = social_login::demo::start(bind, dir.path()).await.unwrap();
    let base = demo.url().to_owned();
    (demo, base, http(), dir)
}

/// A client that follows no redirect, as the tests read them.
pub(crate) fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn get_json(http: &reqwest::Client, url: String) -> Value {
    let response = patiently(|| http.get(&url)).await;
    response.json().await.unwrap()
}

/// Sends the request `build` makes, waiting out the demo's rate limit (429 with
/// `Retry-After`) as a client should; at most ten times.
async fn patiently(build: impl Fn() -> reqwest::RequestBuilder) -> reqwest::Response {
    for _ in 0..10 {
        let response = build().send().await.unwrap();
        if response.status() != 429 {
            return response;
        }
        let wait = response.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
    }
    panic!("still rate-limited after ten waits");
}

/// A person's sign-in with `provider` on the demo at `base`: the simulator's sign-in page,
/// `user` chosen, the redirect back to the demo's callback page, the callback posted.
pub(crate) async fn sign_in_as(
    http: &reqwest::Client,
    base: &str,
    provider: &str,
    user: &str,
) -> Value {
    let authorize = get_json(http, format!("{base}/auth/oauth/{provider}/authorize")).await;
    let url = authorize["authorization_url"].as_str();
    let url = url.unwrap_or_else(|| panic!("{provider}: {authorize}"));
    // A person first sees the sign-in page of the simulated provider.
    let sign_in = http.get(url).send().await.unwrap().text().await.unwrap();
    assert!(sign_in.contains("Ada Lovelace") && sign_in.contains("type an identity"));
    // Choosing someone redirects back to the demo's callback page with code and state.
    let chosen = http.get(as_user(url, user)).send().await.unwrap();
    let location = chosen.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with(&format!("{base}/demo/callback/{provider}?")));
    let query: Vec<(String, String)> = url::Url::parse(&location)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect();
    let field = |name: &str| query.iter().find(|(k, _)| k == name).unwrap().1.clone();
    let callback = format!("{base}/auth/oauth/{provider}/callback");
    let body = serde_json::json!({"code": field("code"), "state": field("state")});
    let login = patiently(|| http.post(&callback).json(&body)).await;
    assert_eq!(login.status(), 200);
    login.json().await.unwrap()
}

#[tokio::test]
async fn the_demo_walks_a_sign_in_through_the_simulators_page() {
    let (_demo, base, http, _dir) = start_demo().await;
    let page = http.get(format!("{base}/")).send().await.unwrap();
    assert!(page.text().await.unwrap().contains("social-login demo"));
    let login = sign_in_as(&http, &base, "github", "583231").await;
    assert_eq!(login["user"]["full_name"], "Ada Lovelace");
}

#[tokio::test]
async fn the_demo_lists_the_eight_then_two_providers_from_configuration_then_the_presets() {
    let (demo, base, http, _dir) = start_demo().await;
    let listed = get_json(&http, format!("{base}/auth/oauth/providers")).await;
    let listed = listed.as_array().unwrap();
    let rows: Vec<String> = listed
        .iter()
        .map(|row| format!("{} {} {}", row["key"], row["display_name"], row["kind"]))
        .collect();
    assert_eq!(
        rows[8..10],
        [
            r#""acme-sso" "Acme SSO" "oidc""#,
            r#""corp" "Corp OAuth" "oauth2""#
        ]
    );
    let presets: Vec<String> = presets()
        .iter()
        .map(|spec| {
            format!(
                "{:?} {:?} {:?}",
                spec.key.as_str(),
                spec.display_name,
                spec.kind.as_str()
            )
        })
        .collect();
    assert_eq!(rows[10..], presets);
    let keys: Vec<&str> = listed
        .iter()
        .map(|row| row["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys[..8],
        [
            "google",
            "github",
            "facebook",
            "microsoft",
            "linkedin",
            "discord",
            "twitter",
            "apple"
        ]
    );
    // The page reads that list: the demo has no configuration endpoint of its own.
    let config = http.get(format!("{base}/demo/config")).send().await;
    assert_eq!(config.unwrap().status(), 404);
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn the_demo_signs_in_with_each_provider_from_configuration() {
    let (demo, base, http, _dir) = start_demo().await;
    for (provider, user, name) in [
        ("acme-sso", "583231", "Ada Lovelace"),
        ("corp", "1000001", "Grace Hopper"),
    ] {
        let login = sign_in_as(&http, &base, provider, user).await;
        assert_eq!(login["user"]["full_name"], name, "{provider}");
        assert_eq!(login["user"]["email_verified"], true, "{provider}");
    }
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn the_demo_signs_in_with_each_preset() {
    let (demo, base, http, _dir) = start_demo().await;
    // Alan's address is not verified: it holds nothing, so every preset makes him a user.
    for spec in presets() {
        let key = spec.key.as_str();
        let login = sign_in_as(&http, &base, key, "1000002").await;
        assert_eq!(login["is_new_user"], true, "{key}");
        assert_eq!(login["user"]["email_verified"], false, "{key}");
    }
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn a_form_post_reaches_the_page_as_json_that_cannot_break_out_of_the_script() {
    let (_demo, base, _, _dir) = start_demo().await;
    let page = reqwest::Client::new()
        .post(format!("{base}/demo/callback/apple"))
        .form(&[("code", "c"), ("state", "s"), ("user", "</script><b>")]);
    let page = body_text(page).await;
    assert!(page.contains(
        r#"const FORM_POST = {"code":"c","state":"s","user":"\u003c/script>\u003cb>"};"#
    ));
    assert!(!page.contains("</script><b>"));
}

#[tokio::test]
async fn the_demos_secret_and_database_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A secret left readable by a previous version is tightened too.
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("secret_key"),
        social_login_security::generate_secret_key(),
    )
    .unwrap();
    std::fs::set_permissions(
        data.join("secret_key"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let demo = social_login::demo::start(bind, &data).await.unwrap();
    // The readiness check reads the database file, which makes SQLite open (create) its
    // -wal and -shm files.
    let ready = reqwest::get(format!("{}/readyz", demo.url()))
        .await
        .unwrap();
    assert!(ready.status().is_success());
    let mode = |name: &str| {
        std::fs::metadata(data.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(""), 0o700, "the data directory");
    for file in ["secret_key", "demo.db", "demo.db-wal", "demo.db-shm"] {
        assert_eq!(mode(file), 0o600, "{file}");
    }
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn the_demo_publishes_its_discovery_document_on_its_own_address() {
    let (demo, base, _, _dir) = start_demo().await;
    let discovery: Value = reqwest::get(format!("{base}/.well-known/openid-configuration"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(discovery["issuer"], base.as_str());
    let jwks_uri = discovery["jwks_uri"].as_str().unwrap();
    assert_eq!(jwks_uri, format!("{base}/.well-known/jwks.json"));
    let jwks: Value = reqwest::get(jwks_uri).await.unwrap().json().await.unwrap();
    assert!(!jwks["keys"].as_array().unwrap().is_empty());
    demo.stop().await.unwrap();
}

#[tokio::test]
async fn a_demo_secret_too_weak_for_the_strength_check_is_replaced_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    let weak = "demo-secret-key-0123456789abcdefghijklmnop";
    std::fs::write(dir.path().join("secret_key"), weak).unwrap();
    let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let demo = social_login::demo::start(bind, dir.path()).await.unwrap();
    let kept = std::fs::read_to_string(dir.path().join("secret_key")).unwrap();
    assert_ne!(kept.trim(), weak);
    assert_eq!(kept.trim().len(), 64, "a fresh gen-secret value");
    demo.stop().await.unwrap();
}
