//! What the simulated Discord receives and refuses beyond the shared scenarios.

use super::support::*;
use social_login_conformance::expect_user_info;
use social_login_provider_core::ProviderConfigError;
use social_login_simulator::{Endpoint, Fault, Provider};

#[tokio::test]
async fn the_token_request_is_a_form_and_the_user_call_a_bearer_token() {
    let sim = FX.start().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let requests = sim.requests();
    let find = |endpoint| {
        requests
            .iter()
            .find(|r| r.endpoint == Some(endpoint))
            .unwrap()
    };
    assert_eq!(
        find(Endpoint::Token).content_type.as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    let user = find(Endpoint::Userinfo);
    assert_eq!(user.outcome, "ok");
    assert_eq!(user.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_refused_bearer_token_is_a_user_info_failure() {
    let sim = FX.start().await;
    sim.set_fault(Fault::new(Provider::Discord, Endpoint::Userinfo).status(401));
    let result = FX.flow().sign_in(&provider(&sim)).await;
    let message = expect_user_info(result, &FX.secrets(&sim));
    assert_eq!(message, "Discord userinfo endpoint answered HTTP 401");
}

#[tokio::test]
async fn an_invalid_user_endpoint_is_refused_naming_its_field() {
    let error = crate::refused(&FX, |s| {
        s.endpoints.userinfo = Some("ftp://discord.example/users/@me".into())
    })
    .await;
    let field = "endpoints.userinfo";
    assert_eq!(error, ProviderConfigError::InvalidUrl { field });
}
