//! `common` serves every tenant: the issuer is checked against each token's own `tid`, and
//! the subject is scoped by it.

use super::support::*;
use social_login_conformance::expect_user_info;
use social_login_simulator::{
    IdTokenFault, MICROSOFT_CONSUMER_TENANT, MicrosoftAccount, Provider, SimUser,
};

const FABRIKAM: &str = "0f1e2d3c-4b5a-4968-8776-655443322110";

#[tokio::test]
async fn accounts_of_different_tenants_each_pass_the_issuer_check() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let personal = identity_as(&provider, "ada").await;
    let work = identity_as(&provider, "grace").await;
    assert!(
        personal
            .subject
            .as_str()
            .starts_with(MICROSOFT_CONSUMER_TENANT)
    );
    assert!(work.subject.as_str().starts_with(CONTOSO));
}

#[tokio::test]
async fn the_same_sub_in_another_tenant_is_another_subject() {
    // The simulator derives `sub` from the user id and app, so these two share a `sub`.
    let sim = simulator().await;
    sim.add_user(
        SimUser::new("grace-7", "grace-fabrikam")
            .with_microsoft(MicrosoftAccount::work(FABRIKAM, "grace@fabrikam.example")),
    );
    let provider = provider(&sim);
    let contoso = identity_as(&provider, "grace").await;
    let fabrikam = identity_as(&provider, "grace-fabrikam").await;
    let sub = |s: &str| s.split_once(':').unwrap().1.to_owned();
    assert_eq!(
        sub(contoso.subject.as_str()),
        sub(fabrikam.subject.as_str())
    );
    assert_ne!(contoso.subject, fabrikam.subject);
}

#[tokio::test]
async fn an_issuer_configured_for_one_tenant_refuses_the_others() {
    let sim = simulator().await;
    let mut settings = FX.settings(&sim);
    settings.endpoints.issuer = Some(sim.microsoft().issuer_of(CONTOSO));
    let provider = provider_with(settings);
    assert!(FX.flow().sign_in_as(&provider, "grace").await.is_ok());
    let message = expect_user_info(FX.flow().sign_in_as(&provider, "ada").await, &secrets(&sim));
    assert_eq!(message, "id_token issuer is not accepted");
}

#[tokio::test]
async fn the_production_issuer_template_refuses_the_simulators_tokens() {
    // Without an override the issuer must be login.microsoftonline.com's.
    let sim = simulator().await;
    let mut settings = FX.settings(&sim);
    settings.endpoints.issuer = None;
    let provider = provider_with(settings);
    let message = expect_user_info(FX.flow().sign_in(&provider).await, &secrets(&sim));
    assert_eq!(message, "id_token issuer is not accepted");
}

#[tokio::test]
async fn an_empty_issuer_override_is_a_configuration_error() {
    let sim = simulator().await;
    let mut settings = FX.settings(&sim);
    settings.endpoints.issuer = Some("  ".into());
    let error = crate::built(&FX, settings).unwrap_err();
    assert!(error.to_string().contains("endpoints.issuer"), "{error}");
}

#[tokio::test]
async fn a_token_claiming_another_tenants_issuer_is_refused() {
    let sim = simulator().await;
    let provider = provider(&sim);
    sim.set_id_token_fault(Provider::Microsoft, IdTokenFault::TenantMismatch);
    for login in ["ada", "grace"] {
        let result = FX.flow().sign_in_as(&provider, login).await;
        let message = expect_user_info(result, &secrets(&sim));
        assert_eq!(message, "id_token issuer is not accepted", "{login}");
    }
}
