//! A provider from configuration against the simulator's standard OpenID provider: served
//! only once discovered, discovered again in the background after a failure.

use super::*;
use social_login_domain::{SecretText, StateToken};
use social_login_provider_core::build_http_client;
use social_login_provider_core::spec::{Claims, Endpoints};
use social_login_simulator::{
    Endpoint, Fault, Provider, RegisteredClient, Simulator, SimulatorConfig, SimulatorHandle,
    StandardKnobs,
};
use std::time::Duration;

const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/acme-sso";

async fn simulator() -> SimulatorHandle {
    let client = RegisteredClient::new(Provider::StandardOidc, "acme-client", "s3cret", CALLBACK);
    Simulator::start(SimulatorConfig::default().with_client(client))
        .await
        .unwrap()
}

fn acme(sim: &SimulatorHandle) -> GenericOidc {
    let provider = GenericProvider {
        key: ProviderKey::parse("acme-sso").unwrap(),
        display_name: "Acme SSO".into(),
        kind: ProviderKind::Oidc,
        issuer: Some(format!("{}/oidc/", sim.base_url())),
        scopes: vec!["openid".into(), "email".into()],
        token_auth: None,
        claims: Claims::openid_connect(),
        endpoints: Endpoints::default(),
        revocation: None,
        knobs: Default::default(),
    };
    let settings = ProviderSettings {
        client_id: "acme-client".into(),
        client_secret: SecretText::new("s3cret"),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: Default::default(),
        signing: None,
    };
    let http = build_http_client(Duration::from_secs(5)).unwrap();
    GenericOidc::new(provider, settings, BuildContext::new(http)).unwrap()
}

#[tokio::test]
async fn id_tokens_signed_with_the_client_secret_are_not_offered_for_native_sign_in() {
    let sim = simulator().await;
    let mut acme = acme(&sim);
    assert!(acme.info().id_token, "checked against the key set");
    let mut provider = acme.discovery.provider.clone();
    use social_login_provider_core::spec::knobs::IdTokenSigning;
    provider.knobs.id_token_signing = Some(IdTokenSigning::ClientSecret);
    let settings = acme.discovery.settings.clone();
    let http = build_http_client(Duration::from_secs(5)).unwrap();
    acme = GenericOidc::new(provider, settings, BuildContext::new(http)).unwrap();
    assert!(
        !acme.info().id_token,
        "an app with the secret could sign one for anyone"
    );
}

/// A provider whose discovery document the simulator does not serve, and that simulator.
async fn undiscovered() -> (SimulatorHandle, GenericOidc) {
    let sim = simulator().await;
    sim.set_fault(Fault::new(Provider::StandardOidc, Endpoint::Discovery).status(503));
    let acme = acme(&sim);
    assert!(acme.discover().await.is_err());
    (sim, acme)
}

fn request() -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse("state-0123456789abcdef").unwrap(),
        pkce_verifier: SecretText::new("v".repeat(43)),
        nonce: SecretText::new("nonce-1"),
        extra_scopes: Default::default(),
    }
}

fn is_unavailable<T>(result: Result<T, ProviderError>) -> bool {
    matches!(result, Err(ProviderError::Unavailable(_)))
}

#[test]
fn the_waits_double_from_one_second_to_at_most_a_minute() {
    let mut backoff = Backoff::new();
    let waits: Vec<u64> = (0..9).map(|_| backoff.next_wait().as_secs()).collect();
    assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
}

#[tokio::test]
async fn before_discovery_it_is_listed_but_serves_no_sign_in() {
    let (_sim, acme) = undiscovered().await;
    assert_eq!(acme.info().display_name, "Acme SSO");
    assert!(acme.info().id_token);
    assert!(is_unavailable(acme.ready()));
    assert!(is_unavailable(acme.authorization_url(&request())));
    let grant = ProviderGrant {
        access_token: SecretText::new("at"),
        refresh_token: None,
        client_id: None,
    };
    assert!(is_unavailable(acme.revoke(grant).await));
}

#[tokio::test]
async fn once_discovered_it_signs_in_where_the_document_says() {
    let sim = simulator().await;
    let acme = acme(&sim);
    acme.discover().await.unwrap();
    assert_eq!(acme.ready(), Ok(()));
    let url = acme.authorization_url(&request()).unwrap();
    let expected = format!("{}/oidc/authorize?", sim.base_url());
    assert!(url.starts_with(&expected), "{url}");
    assert!(url.contains("nonce=nonce-1"), "{url}");
    let plan = acme.engine().unwrap().plan();
    assert_eq!(plan.spec.display_name, "Acme SSO");
    assert!(plan.spec.revocation.is_some(), "the document lists one");
}

#[tokio::test]
async fn a_document_of_another_issuer_is_refused() {
    let sim = simulator().await;
    sim.set_standard_knobs(StandardKnobs {
        announced_issuer: Some("https://sso.evil.example".into()),
        ..StandardKnobs::default()
    });
    let acme = acme(&sim);
    let error = acme.discover().await.unwrap_err();
    assert!(
        matches!(
            error,
            DiscoveryFailed::Discovery(DiscoveryError::IssuerMismatch { .. })
        ),
        "{error}"
    );
    assert!(is_unavailable(acme.ready()));
}

#[tokio::test]
async fn the_retry_serves_the_provider_once_discovery_works_again() {
    let (sim, acme) = undiscovered().await;
    let retry = tokio::spawn(acme.retry().run());
    sim.clear_faults();
    // The first retry is a second away; allow several, never wait unbounded.
    tokio::time::timeout(Duration::from_secs(20), retry)
        .await
        .expect("the retry ends once discovery works")
        .unwrap();
    assert_eq!(acme.ready(), Ok(()));
}

#[tokio::test]
async fn the_retry_ends_when_the_provider_is_gone() {
    let (_sim, acme) = undiscovered().await;
    let retry = tokio::spawn(acme.retry().run());
    drop(acme);
    tokio::time::timeout(Duration::from_secs(5), retry)
        .await
        .expect("the retry ends without its provider")
        .unwrap();
}
