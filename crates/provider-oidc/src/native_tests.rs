//! Native sign-in through the adapters, against the simulator's signed tokens: the audience
//! list of `with_client_ids`, the hashed nonce, Microsoft's tenant issuer, LinkedIn's refusal.

use crate::microsoft::PERSONAL_ACCOUNT_TENANT;
use crate::{GoogleProvider, LinkedinProvider, MicrosoftProvider};
use social_login_domain::SecretText;
use social_login_ports::{IdTokenInput, IdentityProvider, ProviderError};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_simulator::{
    MICROSOFT_CONSUMER_TENANT, Provider, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::time::Duration;

const WEB: &str = "web-client";
const IOS: &str = "com.example.ios";
const RAW_NONCE: &str = "raw-nonce-from-the-app";
// printf %s raw-nonce-from-the-app | sha256sum
const HASHED_NONCE: &str = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";

fn ada() -> SimUser {
    SimUser::new("110248495921238986420", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

async fn simulator() -> SimulatorHandle {
    Simulator::start(SimulatorConfig::default().with_user(ada()))
        .await
        .expect("simulator starts")
}

fn settings(jwks: String, issuer: String) -> ProviderSettings {
    ProviderSettings {
        client_id: WEB.into(),
        client_secret: SecretText::new("secret"),
        redirect_uri: "http://127.0.0.1:9/cb".into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: EndpointOverrides {
            jwks: Some(jwks),
            issuer: Some(issuer),
            ..EndpointOverrides::default()
        },
    }
}

fn http() -> reqwest::Client {
    build_http_client(Duration::from_secs(10)).unwrap()
}

fn input(id_token: String, nonce: Option<&str>) -> IdTokenInput {
    IdTokenInput {
        id_token: SecretText::new(id_token),
        nonce: nonce.map(SecretText::new),
        post_body: None,
    }
}

fn refusal(result: Result<social_login_domain::ProviderIdentity, ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(why)) => why,
        other => panic!("expected a user info failure, got {other:?}"),
    }
}

#[tokio::test]
async fn google_accepts_its_client_ids_and_the_hash_of_the_apps_nonce_only() {
    let sim = simulator().await;
    let endpoints = sim.google();
    let google = GoogleProvider::new(settings(endpoints.jwks, endpoints.issuer), http())
        .unwrap()
        .with_client_ids(&[IOS.to_owned()]);
    let mint = |audience: &str, nonce: Option<&str>| {
        sim.mint_id_token(Provider::Google, &ada(), audience, nonce)
    };

    for audience in [WEB, IOS] {
        let identity = google
            .sign_in_with_id_token(input(mint(audience, Some(HASHED_NONCE)), Some(RAW_NONCE)))
            .await
            .unwrap();
        assert_eq!(identity.subject.as_str(), "110248495921238986420");
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    }
    let other = google
        .sign_in_with_id_token(input(
            mint("other-app", Some(HASHED_NONCE)),
            Some(RAW_NONCE),
        ))
        .await;
    assert_eq!(refusal(other), "id_token audience is not this client");
    let raw = google
        .sign_in_with_id_token(input(mint(WEB, Some(RAW_NONCE)), Some(RAW_NONCE)))
        .await;
    assert_eq!(refusal(raw), "id_token nonce does not match");
    let none = google
        .sign_in_with_id_token(input(mint(WEB, None), Some(RAW_NONCE)))
        .await;
    assert_eq!(refusal(none), "id_token has no nonce");
    // No nonce sent: none compared, whatever the token carries.
    assert!(
        google
            .sign_in_with_id_token(input(mint(WEB, Some(HASHED_NONCE)), None))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn without_client_ids_only_the_web_client_is_an_audience() {
    let sim = simulator().await;
    let endpoints = sim.google();
    let google = GoogleProvider::new(settings(endpoints.jwks, endpoints.issuer), http()).unwrap();
    let ios = sim.mint_id_token(Provider::Google, &ada(), IOS, None);
    let refused = google.sign_in_with_id_token(input(ios, None)).await;
    assert_eq!(refusal(refused), "id_token audience is not this client");
}

#[tokio::test]
async fn microsoft_checks_the_tenant_issuer_and_scopes_the_subject_by_tenant() {
    let sim = simulator().await;
    let endpoints = sim.microsoft();
    let microsoft = MicrosoftProvider::new(
        settings(endpoints.jwks.clone(), endpoints.issuer.clone()),
        http(),
    )
    .unwrap()
    .with_client_ids(&[IOS.to_owned()]);
    // Ada has no work account: a personal one, whose tenant vouches for the email.
    let token = sim.mint_id_token(Provider::Microsoft, &ada(), IOS, Some(HASHED_NONCE));
    let identity = microsoft
        .sign_in_with_id_token(input(token, Some(RAW_NONCE)))
        .await
        .unwrap();
    assert_eq!(MICROSOFT_CONSUMER_TENANT, PERSONAL_ACCOUNT_TENANT);
    let subject = identity.subject.as_str();
    assert!(
        subject.starts_with(&format!("{PERSONAL_ACCOUNT_TENANT}:")),
        "{subject}"
    );
    assert!(identity.email_verified);

    // The issuer template must be filled with the token's own tenant: a template naming a
    // fixed other tenant refuses it.
    let fixed = endpoints.issuer.replace(
        crate::microsoft::TENANT_PLACEHOLDER,
        "72f988bf-86f1-41af-91ab-2d7cd011db47",
    );
    let single_tenant = MicrosoftProvider::new(settings(endpoints.jwks, fixed), http()).unwrap();
    let token = sim.mint_id_token(Provider::Microsoft, &ada(), WEB, None);
    let refused = single_tenant
        .sign_in_with_id_token(input(token, None))
        .await;
    assert_eq!(refusal(refused), "id_token issuer is not accepted");
}

#[tokio::test]
async fn linkedin_offers_no_native_sign_in() {
    let sim = simulator().await;
    let endpoints = sim.linkedin();
    let linkedin =
        LinkedinProvider::new(settings(endpoints.jwks, endpoints.issuer), http()).unwrap();
    let token = sim.mint_id_token(Provider::Linkedin, &ada(), WEB, None);
    assert_eq!(
        linkedin.sign_in_with_id_token(input(token, None)).await,
        Err(ProviderError::IdTokenNotSupported)
    );
}
