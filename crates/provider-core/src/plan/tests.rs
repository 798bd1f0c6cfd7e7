//! Settings applied to declarations: overrides, defaults, and the fields errors name.

use super::*;
use crate::settings::EndpointOverrides;
use social_login_provider_spec::built_in_spec;

fn settings() -> ProviderSettings {
    ProviderSettings {
        client_id: "client-1".into(),
        client_secret: SecretText::new("s3cret"),
        redirect_uri: "https://app.example.com/auth/callback".into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: EndpointOverrides::default(),
    }
}

fn plan(
    key: ProviderKey,
    settings: &ProviderSettings,
) -> Result<ProviderPlan, ProviderConfigError> {
    ProviderPlan::resolve(built_in_spec(key).unwrap(), settings)
}

#[test]
fn without_overrides_the_declaration_is_the_plan() {
    let github = plan(ProviderKey::Github, &settings()).unwrap();
    assert_eq!(github.display_name, "GitHub");
    assert_eq!(github.kind, ProviderKind::OAuth2);
    assert_eq!(github.scopes, ["read:user", "user:email"]);
    assert_eq!(
        github.endpoints.emails.as_ref().map(Url::as_str),
        Some("https://api.github.com/user/emails")
    );
    assert_eq!(github.endpoints.jwks, None);
    assert_eq!(github.id_token, None);
    let revocation = github.revocation.as_ref().unwrap();
    assert_eq!(
        revocation.url.as_str(),
        "https://api.github.com/applications/client-1/grant"
    );
    assert_eq!(
        github.label("userinfo endpoint"),
        "GitHub userinfo endpoint"
    );
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
    let google = plan(ProviderKey::Google, &settings).unwrap();
    assert_eq!(
        google.endpoints.token.as_str(),
        "http://127.0.0.1:9/google/token"
    );
    assert_eq!(
        google.endpoints.authorization.as_str(),
        "https://accounts.google.com/o/oauth2/v2/auth"
    );
    assert_eq!(google.scopes, ["openid"]);
    let id_token = google.id_token.unwrap();
    assert_eq!(id_token.issuers, ["http://127.0.0.1:9/google"]);
    assert_eq!(id_token.other_client_ids, ["com.example.ios"]);
    assert!(id_token.native_sign_in);
    assert_eq!(
        google.revocation.unwrap().url.as_str(),
        "http://127.0.0.1:9/google/revoke"
    );
}

#[test]
fn an_endpoint_the_provider_does_not_have_stays_absent() {
    let mut settings = settings();
    settings.endpoints.userinfo = Some("https://graph.microsoft.com/oidc/userinfo".into());
    settings.endpoints.revocation = Some("https://login.example/revoke".into());
    let microsoft = plan(ProviderKey::Microsoft, &settings).unwrap();
    assert_eq!(microsoft.endpoints.userinfo, None);
    assert_eq!(microsoft.revocation, None);
}

#[test]
fn a_required_pkce_cannot_be_turned_off() {
    let mut settings = settings();
    settings.pkce = false;
    let twitter = plan(ProviderKey::Twitter, &settings).unwrap();
    assert!(twitter.pkce && twitter.pkce_required);
    assert!(!plan(ProviderKey::Discord, &settings).unwrap().pkce);
}

#[test]
fn a_signed_secret_is_never_the_static_one() {
    let apple = plan(ProviderKey::Apple, &settings()).unwrap();
    assert_eq!(apple.client_secret.expose(), "");
    assert_eq!(
        apple.authorize_params,
        [("response_mode".to_owned(), "form_post".to_owned())]
    );
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
        let error = plan(ProviderKey::Google, &settings).unwrap_err();
        assert!(error.to_string().starts_with(field), "{error}");
        assert!(!error.to_string().contains("alert"), "{error}");
    }
}

#[test]
fn debug_output_shows_no_secret() {
    let printed = format!("{:?}", plan(ProviderKey::Discord, &settings()).unwrap());
    assert!(!printed.contains("s3cret"), "{printed}");
}
