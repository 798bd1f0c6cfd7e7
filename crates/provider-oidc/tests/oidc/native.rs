//! Native sign-in over every native declaration of this crate, against the simulator's
//! signed tokens: the audiences of `client_ids` and the hashed nonce for each; Microsoft's
//! tenant issuer and subject; LinkedIn, which offers none.

use social_login_conformance::{Fixture, GOOGLE, LINKEDIN, MICROSOFT};
use social_login_domain::{ProviderIdentity, ProviderKey, SecretText};
use social_login_ports::{IdTokenInput, IdentityProvider, ProviderError};
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_oidc::KEYS;
use social_login_provider_oidc::microsoft::{PERSONAL_ACCOUNT_TENANT, TENANT_PLACEHOLDER};
use social_login_simulator::{MICROSOFT_CONSUMER_TENANT, SimulatorHandle};

const IOS: &str = "com.example.ios";
const RAW_NONCE: &str = "raw-nonce-from-the-app";
// printf %s raw-nonce-from-the-app | sha256sum
const HASHED_NONCE: &str = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";

/// The fixtures of this crate's providers that offer native sign-in.
fn native() -> Vec<Fixture> {
    let native = |key: &&ProviderKey| built_in_spec(**key).is_some_and(|s| s.native_sign_in());
    let fixtures: Vec<Fixture> = KEYS
        .iter()
        .filter(native)
        .map(|key| {
            [GOOGLE, MICROSOFT, LINKEDIN]
                .into_iter()
                .find(|fx| fx.key == *key)
                .unwrap()
        })
        .collect();
    assert_eq!(fixtures.len(), 2, "google and microsoft");
    fixtures
}

/// `fixture`'s provider on `sim`, accepting `client_ids` besides its own.
fn provider(
    fixture: &Fixture,
    sim: &SimulatorHandle,
    client_ids: &[&str],
) -> impl IdentityProvider {
    let mut settings = fixture.settings(sim);
    settings.client_ids = client_ids.iter().map(|id| (*id).to_owned()).collect();
    crate::built(fixture, settings).unwrap()
}

fn input(id_token: String, nonce: Option<&str>) -> IdTokenInput {
    IdTokenInput {
        id_token: SecretText::new(id_token),
        nonce: nonce.map(SecretText::new),
        post_body: None,
    }
}

fn refusal(result: Result<ProviderIdentity, ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(why)) => why,
        other => panic!("expected a user info failure, got {other:?}"),
    }
}

#[tokio::test]
async fn each_native_provider_accepts_its_client_ids_and_the_hash_of_the_apps_nonce_only() {
    for fx in native() {
        let sim = fx.start().await;
        let provider = provider(&fx, &sim, &[IOS]);
        let mint =
            |audience: &str, nonce| sim.mint_id_token(fx.provider, &fx.user(), audience, nonce);
        let sign_in = |token, nonce| provider.sign_in_with_id_token(input(token, nonce));
        for audience in [fx.client_id, IOS] {
            let identity = sign_in(mint(audience, Some(HASHED_NONCE)), Some(RAW_NONCE)).await;
            let identity = identity.unwrap_or_else(|e| panic!("{:?} {audience}: {e}", fx.key));
            assert_eq!(identity.provider, fx.key);
            assert!(identity.email_verified, "{:?}", fx.key);
            assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        }
        let other = sign_in(mint("other-app", Some(HASHED_NONCE)), Some(RAW_NONCE)).await;
        assert_eq!(refusal(other), "id_token audience is not this client");
        let raw = sign_in(mint(fx.client_id, Some(RAW_NONCE)), Some(RAW_NONCE)).await;
        assert_eq!(refusal(raw), "id_token nonce does not match");
        let none = sign_in(mint(fx.client_id, None), Some(RAW_NONCE)).await;
        assert_eq!(refusal(none), "id_token has no nonce");
        // No nonce sent: none compared, whatever the token carries.
        assert!(
            sign_in(mint(fx.client_id, Some(HASHED_NONCE)), None)
                .await
                .is_ok()
        );
    }
}

#[tokio::test]
async fn without_client_ids_only_the_web_client_is_an_audience() {
    for fx in native() {
        let sim = fx.start().await;
        let ios = sim.mint_id_token(fx.provider, &fx.user(), IOS, None);
        let refused = provider(&fx, &sim, &[])
            .sign_in_with_id_token(input(ios, None))
            .await;
        assert_eq!(refusal(refused), "id_token audience is not this client");
    }
}

#[tokio::test]
async fn microsoft_checks_the_tenant_issuer_and_scopes_the_subject_by_tenant() {
    let sim = MICROSOFT.start().await;
    // Ada has no work account: a personal one, whose tenant vouches for the email.
    let token = sim.mint_id_token(MICROSOFT.provider, &MICROSOFT.user(), IOS, None);
    let identity = provider(&MICROSOFT, &sim, &[IOS])
        .sign_in_with_id_token(input(token, None))
        .await
        .unwrap();
    assert_eq!(MICROSOFT_CONSUMER_TENANT, PERSONAL_ACCOUNT_TENANT);
    let subject = identity.subject.as_str();
    assert!(
        subject.starts_with(&format!("{PERSONAL_ACCOUNT_TENANT}:")),
        "{subject}"
    );

    // The issuer template must be filled with the token's own tenant: a template naming a
    // fixed other tenant refuses it.
    let mut settings = MICROSOFT.settings(&sim);
    let fixed = sim
        .microsoft()
        .issuer
        .replace(TENANT_PLACEHOLDER, "72f988bf-86f1-41af-91ab-2d7cd011db47");
    settings.endpoints.issuer = Some(fixed);
    let single_tenant = crate::built(&MICROSOFT, settings).unwrap();
    let token = sim.mint_id_token(
        MICROSOFT.provider,
        &MICROSOFT.user(),
        MICROSOFT.client_id,
        None,
    );
    let refused = single_tenant
        .sign_in_with_id_token(input(token, None))
        .await;
    assert_eq!(refusal(refused), "id_token issuer is not accepted");
}

#[tokio::test]
async fn linkedin_offers_no_native_sign_in() {
    let sim = LINKEDIN.start().await;
    let token = sim.mint_id_token(
        LINKEDIN.provider,
        &LINKEDIN.user(),
        LINKEDIN.client_id,
        None,
    );
    assert_eq!(
        provider(&LINKEDIN, &sim, &[])
            .sign_in_with_id_token(input(token, None))
            .await,
        Err(ProviderError::IdTokenNotSupported)
    );
}
