//! The prebuilt URL means what oauth2's builder made of the same plan, for every built-in
//! provider and providers from configuration; and it carries what each request needs.

use super::*;
use crate::settings::ProviderSettings;
use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, ClientId, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
};
use social_login_domain::{ProviderKey, SecretText, StateToken};
use social_login_provider_spec::fixtures::corp;
use social_login_provider_spec::{GenericProvider, ProviderSpec, built_in, built_in_spec};
use std::collections::HashMap;
use url::Url;

// RFC 7636 appendix B: this verifier's S256 challenge is known.
const RFC_VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

fn settings() -> ProviderSettings {
    crate::settings::test_settings()
}

fn request() -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse("state-value-0123456789").unwrap(),
        pkce_verifier: SecretText::new(RFC_VERIFIER),
        nonce: SecretText::new("nonce-1"),
        extra_scopes: Default::default(),
    }
}

fn query(url: &str) -> HashMap<String, String> {
    Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

fn github(settings: &ProviderSettings) -> String {
    let github = built_in_spec(ProviderKey::GITHUB).unwrap();
    let plan = ProviderPlan::resolve(github, settings).unwrap();
    AuthorizeUrl::from_plan(&plan).for_request(&request())
}

/// How the URL was built per request before: through oauth2's builder, the declaration's
/// parameters and (`oidc`) the nonce as its extra parameters.
fn through_oauth2(plan: &ProviderPlan, request: &AuthorizationRequest) -> String {
    let client = BasicClient::new(ClientId::new(plan.settings.client_id.clone()))
        .set_auth_uri(AuthUrl::from_url(plan.urls.authorization.clone()))
        .set_redirect_uri(RedirectUrl::from_url(plan.urls.redirect.clone()));
    let state = request.state.as_str().to_owned();
    let mut builder = client
        .authorize_url(move || CsrfToken::new(state))
        .add_scopes(plan.spec.scopes.iter().cloned().map(Scope::new));
    if plan.pkce {
        let verifier = PkceCodeVerifier::new(request.pkce_verifier.expose().to_owned());
        builder =
            builder.set_pkce_challenge(PkceCodeChallenge::from_code_verifier_sha256(&verifier));
    }
    for (name, value) in &plan.spec.authorization_params {
        builder = builder.add_extra_param(name, value);
    }
    if plan.spec.kind == ProviderKind::Oidc {
        builder = builder.add_extra_param("nonce", request.nonce.expose());
    }
    builder.url().0.into()
}

/// A URL's meaning: everything but the query, and the query's pairs decoded, in any order.
fn meaning(url: &str) -> (String, Vec<(String, String)>) {
    let mut url = Url::parse(url).unwrap();
    let mut pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    pairs.sort();
    url.set_query(None);
    (url.into(), pairs)
}

fn assert_same_meaning(spec: &ProviderSpec, settings: &ProviderSettings) {
    let plan = ProviderPlan::resolve(spec, settings).unwrap();
    let request = request();
    let prebuilt = AuthorizeUrl::from_plan(&plan).for_request(&request);
    let before = through_oauth2(&plan, &request);
    assert_eq!(meaning(&prebuilt), meaning(&before), "{}", spec.key);
}

#[test]
fn every_built_in_provider_gets_the_parameters_oauth2_built() {
    let mut without_pkce = settings();
    without_pkce.pkce = false;
    for spec in built_in() {
        assert_same_meaning(spec, &settings());
        assert_same_meaning(spec, &without_pkce);
    }
}

#[test]
fn providers_from_configuration_get_the_parameters_oauth2_built() {
    let oauth2 = corp().declaration(None);
    assert_same_meaning(&oauth2, &settings());
    let oidc = GenericProvider {
        kind: ProviderKind::Oidc,
        scopes: vec!["openid".into(), "email".into()],
        ..corp()
    }
    .declaration(None);
    assert_same_meaning(&oidc, &settings());
}

#[test]
fn an_endpoint_with_a_query_a_fragment_and_characters_to_encode_keeps_its_meaning() {
    let mut spec = corp().declaration(None);
    spec.endpoints.authorization = "https://corp.example/authorize?tenant=a%20b&x=%26#top".into();
    spec.scopes = vec!["read:user".into(), "a+b&c=d".into(), "é/ü".into()];
    spec.authorization_params
        .insert("prompt".into(), "select account & more".into());
    let mut settings = settings();
    settings.client_id = "client id/+&=".into();
    settings.redirect_uri = "https://app.example.com/cb?next=/a b&x=1".into();
    assert_same_meaning(&spec, &settings);
    let plan = ProviderPlan::resolve(&spec, &settings).unwrap();
    let url = AuthorizeUrl::from_plan(&plan).for_request(&request());
    assert!(url.ends_with("#top"), "{url}");
    assert_eq!(query(&url)["client_id"], "client id/+&=");
    assert_eq!(query(&url)["tenant"], "a b");
}

#[test]
fn the_url_carries_every_parameter_and_the_s256_challenge() {
    let url = github(&settings());
    let authorize = "https://github.com/login/oauth/authorize?";
    assert!(url.starts_with(authorize), "{url}");
    let query = query(&url);
    assert_eq!(query["client_id"], "client-1");
    assert_eq!(query["redirect_uri"], "https://app.example.com/cb");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "read:user user:email");
    assert_eq!(query["state"], "state-value-0123456789");
    assert_eq!(query["code_challenge"], RFC_CHALLENGE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(RFC_VERIFIER) && !url.contains("s3cret"));
}

#[test]
fn only_an_oidc_provider_gets_the_nonce() {
    assert!(!query(&github(&settings())).contains_key("nonce"));
    let google = built_in_spec(ProviderKey::GOOGLE).unwrap();
    let plan = ProviderPlan::resolve(google, &settings()).unwrap();
    let url = AuthorizeUrl::from_plan(&plan).for_request(&request());
    assert_eq!(query(&url)["nonce"], "nonce-1");
}

#[test]
fn with_pkce_off_no_challenge_is_sent() {
    let mut settings = settings();
    settings.pkce = false;
    let query = query(&github(&settings));
    assert!(!query.contains_key("code_challenge"));
    assert!(!query.contains_key("code_challenge_method"));
}

#[test]
fn configured_scopes_and_endpoints_replace_the_declared_ones() {
    let mut settings = settings();
    settings.scopes = Some(vec!["user:email".into()]);
    let configured = "http://127.0.0.1:1/github/login/oauth/authorize";
    settings.endpoints.authorization = Some(configured.into());
    let url = github(&settings);
    assert!(url.starts_with(&format!("{configured}?")), "{url}");
    assert_eq!(query(&url)["scope"], "user:email");
}

#[test]
fn the_string_is_sized_once() {
    let spec = built_in_spec(ProviderKey::GITHUB).unwrap();
    let prebuilt = AuthorizeUrl::from_plan(&ProviderPlan::resolve(spec, &settings()).unwrap());
    let url = prebuilt.for_request(&request());
    // Had anything grown the String, its capacity would exceed the size it was made with.
    assert_eq!(url.capacity(), prebuilt.capacity_for(&request()));
}

#[test]
fn a_connect_asking_for_more_scopes_names_them_after_the_providers_own() {
    let github = built_in_spec(ProviderKey::GITHUB).unwrap();
    let plan = ProviderPlan::resolve(github, &settings()).unwrap();
    let url = AuthorizeUrl::from_plan(&plan);
    let more = AuthorizationRequest {
        extra_scopes: social_login_domain::Scopes::from_words(["repo", "read:org"]),
        ..request()
    };
    let asked = query(&url.for_request(&more));
    let plain = query(&url.for_request(&request()));
    assert_eq!(asked["scope"], format!("{} repo read:org", plain["scope"]));
    let mut rest = asked.clone();
    rest.remove("scope");
    let mut plain_rest = plain.clone();
    plain_rest.remove("scope");
    assert_eq!(rest, plain_rest, "nothing else changes");

    // TikTok joins scopes with commas: the extra ones too.
    let tiktok = social_login_provider_spec::preset("tiktok").unwrap();
    let plan = ProviderPlan::resolve(tiktok, &settings()).unwrap();
    let asked = query(&AuthorizeUrl::from_plan(&plan).for_request(&more));
    assert!(
        asked["scope"].ends_with(",repo,read:org"),
        "{}",
        asked["scope"]
    );
}
