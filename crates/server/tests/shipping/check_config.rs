//! `social-login check-config`, the real binary, with providers of `kind = "oidc"`: it
//! fetches each one's discovery document and names what is wrong under its `issuer`.

use axum::Router;
use axum::routing::get;
use serde_json::json;
use std::process::Output;
use tokio::net::TcpListener;

/// A strong `secret_key` (an output of `social-login gen-secret`).
const SECRET: &str = "mJeoKE5-JOiJ9D0iEM3wsQepvdzTEiJzLiHpgzJzmhUBdmR3xSdOW641hqD8XHbg";

/// Serves, at `/{realm}/.well-known/openid-configuration`, a document whose `issuer` is
/// `issuer(base, realm)`; returns the base URL.
async fn identity_provider(issuer: fn(&str, &str) -> String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let served = base.clone();
    let app = Router::new().route(
        "/{realm}/.well-known/openid-configuration",
        get(
            move |axum::extract::Path(realm): axum::extract::Path<String>| {
                let issuer = issuer(&served, &realm);
                async move {
                    axum::Json(json!({
                        "issuer": issuer,
                        "authorization_endpoint": format!("{issuer}/authorize"),
                        "token_endpoint": format!("{issuer}/token"),
                        "jwks_uri": format!("{issuer}/jwks"),
                    }))
                }
            },
        ),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn oidc_table(key: &str, issuer: &str) -> String {
    format!(
        "[oauth_providers.{key}]\nkind = \"oidc\"\nissuer = \"{issuer}\"\nclient_id = \"id\"\n\
         client_secret = \"provider-client-secret\"\n\
         redirect_uri = \"http://127.0.0.1:8080/auth/callback/{key}\"\n"
    )
}

/// Runs `check-config` on `toml`, off the async runtime so the provider keeps serving.
async fn check_config(toml: String) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("social-login.toml");
    std::fs::write(&path, toml).unwrap();
    tokio::task::spawn_blocking(move || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_social-login"))
            .arg("check-config")
            .arg("--config")
            .arg(&path)
            .env_remove("SOCIAL_LOGIN_CONFIG")
            .output()
            .expect("the binary runs");
        drop(dir);
        output
    })
    .await
    .unwrap()
}

/// Runs `check-config` on `toml`, which it must refuse (exit status 2): what it printed on
/// stderr.
async fn check_config_refuses(toml: String) -> String {
    let output = check_config(toml).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    stderr
}

#[tokio::test]
async fn check_config_names_the_discovery_problem_of_each_oidc_provider() {
    // `acme` announces another issuer; `fine` its own.
    let base = identity_provider(|base, realm| match realm {
        "acme" => "https://sso.evil.example".to_owned(),
        _ => format!("{base}/{realm}"),
    })
    .await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let toml = format!(
        "secret_key = \"{SECRET}\"\n{}{}{}",
        oidc_table("acme", &format!("{base}/acme")),
        oidc_table("down", &format!("http://{closed}/down")),
        oidc_table("fine", &format!("{base}/fine/")),
    );
    let stderr = check_config_refuses(toml).await;
    assert!(
        stderr.contains(&format!(
            "oauth_providers.acme.issuer: issuer is \"https://sso.evil.example\", expected \
             \"{base}/acme\""
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("oauth_providers.down.issuer: discovery document could not be reached"),
        "{stderr}"
    );
    assert!(!stderr.contains("oauth_providers.fine.issuer"), "{stderr}");
    assert!(!stderr.contains("provider-client-secret"), "{stderr}");
}

/// A provider table of `kind` named `key`, with `extra` lines inside it.
fn generic_table(key: &str, kind: &str, extra: &str) -> String {
    format!(
        "[oauth_providers.{key}]\nkind = \"{kind}\"\nclient_id = \"id\"\n\
         client_secret = \"provider-client-secret\"\n\
         redirect_uri = \"http://127.0.0.1:8080/auth/callback/{key}\"\n{extra}\n"
    )
}

#[tokio::test]
async fn check_config_names_a_bad_key_an_unknown_kind_and_a_missing_endpoint() {
    let endpoints = "scopes = [\"profile\"]\n[oauth_providers.corp.endpoints]\n\
                     authorization = \"https://corp.example/authorize\"\n\
                     token = \"https://corp.example/token\"\n";
    let toml = format!(
        "secret_key = \"{SECRET}\"\n{}{}{}",
        generic_table("Acme_SSO", "oidc", "issuer = \"https://sso.acme.example\""),
        generic_table("gitlab", "saml", ""),
        generic_table("corp", "oauth2", endpoints),
    );
    let stderr = check_config_refuses(toml).await;
    for named in [
        "oauth_providers.Acme_SSO: not a provider key",
        "oauth_providers.gitlab.kind: unknown kind",
        "oauth_providers.corp.endpoints.userinfo: required for kind = \"oauth2\"",
    ] {
        assert!(stderr.contains(named), "{named} in {stderr}");
    }
    assert!(!stderr.contains("provider-client-secret"), "{stderr}");
}

#[tokio::test]
async fn check_config_passes_complete_providers_from_configuration() {
    let base = identity_provider(|base, realm| format!("{base}/{realm}")).await;
    let endpoints = "scopes = [\"profile\"]\n[oauth_providers.corp.endpoints]\n\
                     authorization = \"https://corp.example/authorize\"\n\
                     token = \"https://corp.example/token\"\n\
                     userinfo = \"https://corp.example/me\"\n";
    let toml = format!(
        "secret_key = \"{SECRET}\"\n{}{}",
        oidc_table("acme", &format!("{base}/acme")),
        generic_table("corp", "oauth2", endpoints),
    );
    let output = check_config(toml).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[tokio::test]
async fn check_config_names_a_presets_missing_tenant_an_unknown_knob_a_bad_token_in_and_pointer() {
    let client = "client_id = \"id\"\nclient_secret = \"preset-client-secret\"\n\
                  redirect_uri = \"https://app.example.com/cb\"\n";
    let toml = format!(
        "secret_key = \"{SECRET}\"\n\
         [oauth_providers.okta]\n{client}\
         [oauth_providers.spotify]\n{client}scope_seperator = \",\"\n\
         [oauth_providers.reddit]\n{client}[oauth_providers.reddit.userinfo]\ntoken_in = \"cookie:x\"\n\
         [oauth_providers.figma]\n{client}[oauth_providers.figma.claims]\nemail = \"email\"\n"
    );
    let stderr = check_config_refuses(toml).await;
    for named in [
        "oauth_providers.okta.issuer",
        "oauth_providers.spotify.scope_seperator: unknown key",
        "oauth_providers.reddit.userinfo.token_in",
        "oauth_providers.figma.claims.email",
    ] {
        assert!(stderr.contains(named), "{named} in {stderr}");
    }
    assert!(!stderr.contains("preset-client-secret"), "{stderr}");
}
