//! Failures only X has: short-lived codes, `/2/users/me` answering 429 or no `data`, and a
//! token without the read scopes. Also the public client, and the settings X checks.

use super::support::*;
use social_login_conformance::{complete, expect_code_exchange, expect_user_info, fixture};
use social_login_provider_core::ProviderConfigError;
use social_login_simulator::{ClientAuthKind, Endpoint, Fault, Provider};
use std::time::Duration;

#[tokio::test]
async fn a_code_older_than_x_allows_is_refused() {
    // X's codes live 30 seconds; a zero lifetime reaches that path without waiting.
    let config = FX.config([FX.user()]).with_twitter_code_ttl(Duration::ZERO);
    let sim = fixture::start(config).await;
    let provider = provider(&sim);
    let code = FX.flow().authorize(&provider).await.code;
    let message = expect_code_exchange(complete(&provider, &code).await, &[&code]);
    assert_eq!(message, "token endpoint answered error `invalid_request`");
}

#[tokio::test]
async fn user_endpoint_refusals_are_user_info_failures() {
    let me = || Fault::new(Provider::Twitter, Endpoint::Userinfo);
    let cases = [
        (me().status(429), "X userinfo endpoint answered HTTP 429"),
        // A 200 without `data`.
        (
            me().error_in_200("invalid_request"),
            "X userinfo endpoint answered no user data",
        ),
    ];
    for (fault, expected) in cases {
        let sim = FX.start().await;
        sim.set_fault(fault);
        let result = FX.flow().sign_in(&provider(&sim)).await;
        assert_eq!(expect_user_info(result, &FX.secrets(&sim)), expected);
    }
}

#[tokio::test]
async fn a_token_without_the_read_scopes_is_a_user_info_failure() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.scopes = Some(vec!["offline.access".into()]);
    let result = FX.flow().sign_in(&provider_with(settings)).await;
    let message = expect_user_info(result, &FX.secrets(&sim));
    assert_eq!(message, "X userinfo endpoint answered HTTP 403");
}

#[tokio::test]
async fn a_public_client_without_secret_sends_its_client_id_in_the_body() {
    let (sim, settings) = public_client().await;
    FX.flow().sign_in(&provider_with(settings)).await.unwrap();
    let token = first_request(&sim, Endpoint::Token);
    assert_eq!(token.client_auth, Some(ClientAuthKind::None));
    assert_eq!(token.client_id.as_deref(), Some(FX.client_id));
}

#[tokio::test]
async fn an_invalid_user_endpoint_is_refused_naming_its_field() {
    let error = crate::refused(&FX, |s| s.endpoints.userinfo = Some("not a url".into())).await;
    let field = "endpoints.userinfo";
    assert_eq!(error, ProviderConfigError::InvalidUrl { field });
}
