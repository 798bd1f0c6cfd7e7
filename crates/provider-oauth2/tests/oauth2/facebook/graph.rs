//! The Graph API as the simulated Facebook serves it: one pinned version, the
//! appsecret_proof on every call, errors in the Graph envelope.

use super::support::*;
use social_login_conformance::{expect_code_exchange, expect_user_info, kit::WRONG_SECRET};
use social_login_domain::ProviderKey;
use social_login_domain::SecretText;
use social_login_provider_core::ProviderConfigError;
use social_login_provider_core::spec::built_in_spec;
use social_login_simulator::{Endpoint, Fault, Provider};

#[test]
fn the_public_endpoints_name_one_pinned_graph_version() {
    let spec = built_in_spec(ProviderKey::FACEBOOK).unwrap();
    let endpoints = &spec.endpoints;
    let revocation = spec.revocation.as_ref().map(|rules| rules.url.as_str());
    let userinfo = endpoints.userinfo.as_deref();
    for url in [
        Some(endpoints.authorization.as_str()),
        Some(&endpoints.token),
        userinfo,
        revocation,
    ] {
        assert!(
            url.is_some_and(|url| url.contains("facebook.com/v24.0/")),
            "{url:?}"
        );
    }
}

#[tokio::test]
async fn the_exchange_names_the_graph_version() {
    let sim = FX.start().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let token = token_request(&sim);
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.api_version.as_deref(), Some("v24.0"));
}

#[tokio::test]
async fn the_profile_call_carries_a_correct_appsecret_proof_and_the_bearer_token() {
    // The simulated app requires the proof: an "ok" outcome means it was present and
    // equal to HMAC-SHA256(app secret, access token).
    let sim = FX.start().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let me = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Userinfo))
        .unwrap();
    assert_eq!(me.outcome, "ok");
    assert_eq!(me.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_configured_profile_url_gets_our_fields_and_proof_in_place_of_its_own() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    let me = format!(
        "{}?appsecret_proof=00&fields=id&locale=en_US",
        sim.facebook().me
    );
    settings.endpoints.userinfo = Some(me);
    // A stale proof or the narrow field list would fail or lose the email.
    let identity = FX
        .flow()
        .sign_in(&provider_with(settings))
        .await
        .unwrap()
        .identity;
    assert!(identity.email.is_some());
    assert!(identity.full_name.is_some());
}

#[tokio::test]
async fn a_wrong_app_secret_is_refused_as_graph_oauth_exception_1() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new(WRONG_SECRET);
    let result = FX.flow().sign_in(&provider_with(settings)).await;
    expect_code_exchange(result, &[WRONG_SECRET]);
    assert_eq!(token_request(&sim).outcome, "OAuthException_1");
}

#[tokio::test]
async fn graph_errors_on_the_profile_call_are_user_info_failures() {
    let me = || Fault::new(Provider::Facebook, Endpoint::Userinfo);
    for fault in [me().status(400), me().error_in_200("OAuthException")] {
        let sim = FX.start().await;
        sim.set_fault(fault);
        let result = FX.flow().sign_in(&provider(&sim)).await;
        expect_user_info(result, &FX.secrets(&sim));
    }
}

#[tokio::test]
async fn an_empty_app_secret_is_refused_at_start_up() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new("");
    let error = crate::built(&FX, settings).unwrap_err();
    assert_eq!(
        error,
        ProviderConfigError::Missing {
            field: "client_secret"
        }
    );
}

fn token_request(
    sim: &social_login_simulator::SimulatorHandle,
) -> social_login_simulator::RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap()
}
