//! Settings applied to declarations: overrides, defaults, and the fields errors name.

use super::*;
use crate::settings::EndpointOverrides;
use social_login_provider_spec::built_in_spec;

fn settings() -> ProviderSettings {
    crate::settings::test_settings()
}

fn plan(
    key: ProviderKey,
    settings: &ProviderSettings,
) -> Result<ProviderPlan, ProviderConfigError> {
    ProviderPlan::resolve(built_in_spec(key).unwrap(), settings)
}

#[test]
fn without_overrides_the_declaration_is_the_plan() {
    let github = plan(ProviderKey::GITHUB, &settings()).unwrap();
    assert_eq!(&github.spec, built_in_spec(ProviderKey::GITHUB).unwrap());
    assert_eq!(
        github.urls.get(Endpoint::Emails).map(Url::as_str),
        Some("https://api.github.com/user/emails")
    );
    assert_eq!(github.urls.get(Endpoint::Jwks), None);
    assert_eq!(
        github.urls.get(Endpoint::Revocation).map(Url::as_str),
        Some("https://api.github.com/applications/client-1/grant")
    );
    assert_eq!(github.settings.client_secret.expose(), "s3cret");
    assert_eq!(
        github.label("userinfo endpoint"),
        "GitHub userinfo endpoint"
    );
    assert_eq!(github.key(), ProviderKey::GITHUB);
}

#[test]
fn overrides_replace_endpoints_scopes_and_the_issuer() {
    let mut settings = settings();
    settings.scopes = Some(vec!["openid".into()]);
    settings.client_ids = vec!["com.example.ios".into()];
    settings.endpoints = EndpointOverrides {
        token: Some("http://127.0.0.1:9/google/token".into()),
        issuer: Some(" http://127.0.0.1:9/google ".into()),
        revocation: Some("http://127.0.0.1:9/google/revoke".into()),
        ..EndpointOverrides::default()
    };
    let google = plan(ProviderKey::GOOGLE, &settings).unwrap();
    let token = "http://127.0.0.1:9/google/token";
    assert_eq!(google.urls.token.as_str(), token);
    assert_eq!(google.spec.endpoints.token, token);
    let authorization = google.urls.authorization.as_str();
    assert_eq!(
        authorization,
        "https://accounts.google.com/o/oauth2/v2/auth"
    );
    assert_eq!(google.spec.scopes, ["openid"]);
    let issuers = google
        .spec
        .id_token
        .as_ref()
        .map(|rules| &rules.issuers[..]);
    assert_eq!(issuers, Some(&["http://127.0.0.1:9/google".to_owned()][..]));
    assert!(google.spec.native_sign_in());
    assert_eq!(google.settings.client_ids, ["com.example.ios"]);
    let revocation = google.urls.get(Endpoint::Revocation).map(Url::as_str);
    assert_eq!(revocation, Some("http://127.0.0.1:9/google/revoke"));
}

#[test]
fn an_endpoint_the_provider_does_not_have_stays_absent() {
    let mut settings = settings();
    settings.endpoints.userinfo = Some("https://graph.microsoft.com/oidc/userinfo".into());
    settings.endpoints.revocation = Some("https://login.example/revoke".into());
    let microsoft = plan(ProviderKey::MICROSOFT, &settings).unwrap();
    assert_eq!(microsoft.urls.get(Endpoint::Userinfo), None);
    assert_eq!(microsoft.urls.get(Endpoint::Revocation), None);
    assert_eq!(microsoft.spec.endpoints.userinfo, None);
}

#[test]
fn a_required_pkce_cannot_be_turned_off() {
    let mut settings = settings();
    settings.pkce = false;
    let twitter = plan(ProviderKey::TWITTER, &settings).unwrap();
    assert!(twitter.pkce && twitter.spec.pkce_required);
    assert!(!plan(ProviderKey::DISCORD, &settings).unwrap().pkce);
}

#[test]
fn a_signed_secret_is_never_the_static_one() {
    let apple = plan(ProviderKey::APPLE, &settings()).unwrap();
    assert_eq!(apple.settings.client_secret.expose(), "");
}

#[test]
fn invalid_settings_are_refused_naming_the_field() {
    let mut no_client = settings();
    no_client.client_id = " ".into();
    let mut bad_redirect = settings();
    bad_redirect.redirect_uri = "not a url".into();
    let mut bad_jwks = settings();
    bad_jwks.endpoints.jwks = Some("ftp://keys".into());
    let mut blank_issuer = settings();
    blank_issuer.endpoints.issuer = Some(" ".into());
    let mut bad_revocation = settings();
    bad_revocation.endpoints.revocation = Some("javascript:alert(1)".into());
    for (settings, field) in [
        (no_client, "client_id"),
        (bad_redirect, "redirect_uri"),
        (bad_jwks, "endpoints.jwks"),
        (blank_issuer, "endpoints.issuer"),
        (bad_revocation, "endpoints.revocation"),
    ] {
        let error = plan(ProviderKey::GOOGLE, &settings).unwrap_err();
        assert!(error.to_string().starts_with(field), "{error}");
        assert!(!error.to_string().contains("alert"), "{error}");
    }
}

#[test]
fn debug_output_shows_no_secret() {
    let printed = format!("{:?}", plan(ProviderKey::DISCORD, &settings()).unwrap());
    assert!(!printed.contains("s3cret"), "{printed}");
}

#[test]
fn a_header_value_may_name_the_client_id_which_the_plan_fills_in() {
    let mut twitch = built_in_spec(ProviderKey::GITHUB).unwrap().clone();
    let headers = &mut twitch.userinfo.headers;
    headers.insert("Client-Id".into(), "{client_id}".into());
    let plan = ProviderPlan::resolve(&twitch, &settings()).unwrap();
    assert_eq!(plan.spec.userinfo.headers["Client-Id"], "client-1");
}

#[test]
fn a_refresh_endpoint_apart_from_the_token_endpoint_is_the_declarations_or_the_operators() {
    let wechat = social_login_provider_spec::preset("wechat").unwrap();
    let declared = ProviderPlan::resolve(wechat, &settings()).unwrap();
    assert_eq!(
        declared.urls.get(Endpoint::Refresh).map(Url::as_str),
        Some("https://api.weixin.qq.com/sns/oauth2/refresh_token")
    );
    let mut proxied = settings();
    proxied.endpoints = EndpointOverrides {
        token: Some("http://127.0.0.1:9/wechat/token".into()),
        refresh: Some("http://127.0.0.1:9/wechat/refresh".into()),
        ..EndpointOverrides::default()
    };
    let overridden = ProviderPlan::resolve(wechat, &proxied).unwrap();
    assert_eq!(
        overridden.urls.get(Endpoint::Refresh).map(Url::as_str),
        Some("http://127.0.0.1:9/wechat/refresh")
    );
    // A provider that refreshes at its token endpoint has none to override.
    let github = plan(ProviderKey::GITHUB, &proxied).unwrap();
    assert_eq!(github.urls.get(Endpoint::Refresh), None);
}
