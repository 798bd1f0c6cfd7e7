//! Successful Microsoft sign-ins: the request sent, and how the id_token becomes the
//! identity (subject scoped by tenant, email verified only when Microsoft vouches for it).

use super::support::*;
use social_login_conformance::assert_tokens;
use social_login_domain::ProviderIdentity;
use social_login_simulator::{
    Endpoint, MICROSOFT_CONSUMER_TENANT, MicrosoftAccount, Provider, SimUser,
};

#[tokio::test]
async fn a_personal_account_signs_in_with_a_verified_email() {
    let sim = simulator().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let subject = &login.identity.subject;
    let (tid, sub) = subject.as_str().split_once(':').unwrap();
    assert_eq!(tid, MICROSOFT_CONSUMER_TENANT);
    assert_eq!(sub.len(), 43, "Microsoft's pairwise sub");
    let tenant_scoped = ProviderIdentity {
        subject: subject.clone(),
        ..FX.seeded_identity()
    };
    assert_eq!(login.identity, tenant_scoped);
    // No `offline_access` asked: no refresh token.
    assert_tokens(&login.tokens, "EwA", false);
}

#[tokio::test]
async fn the_id_token_is_enough_no_userinfo_or_graph_call_is_made() {
    let sim = simulator().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let records = sim.requests();
    let find = |endpoint| {
        records
            .iter()
            .find(|r| r.provider == Some(Provider::Microsoft) && r.endpoint == Some(endpoint))
            .unwrap()
    };
    assert_eq!(find(Endpoint::Token).outcome, "ok");
    assert_eq!(find(Endpoint::Jwks).outcome, "ok");
    assert!(
        !records
            .iter()
            .any(|r| r.endpoint == Some(Endpoint::Userinfo)),
        "the id_token is enough: no userinfo or Graph call"
    );
}

#[tokio::test]
async fn a_work_account_without_email_offers_its_upn_but_never_as_verified() {
    let sim = simulator().await;
    let login = signed_in_as(&sim, "grace").await;
    assert!(
        login
            .identity
            .subject
            .as_str()
            .starts_with(&format!("{CONTOSO}:"))
    );
    assert_eq!(email(&login), Some("grace@contoso.onmicrosoft.com"));
    assert!(!login.identity.email_verified);
    assert_eq!(login.identity.full_name.as_deref(), Some("Grace Hopper"));
}

#[tokio::test]
async fn a_work_tenant_email_without_xms_edov_is_not_verified() {
    // nOAuth: a tenant administrator can type any address into a user's `email`.
    let sim = simulator().await;
    let login = signed_in_as(&sim, "mallory").await;
    assert_eq!(email(&login), Some("ceo@victim.example"));
    assert!(!login.identity.email_verified);
    assert!(login.identity.verified_email().is_none());
}

#[tokio::test]
async fn xms_edov_makes_a_work_email_verified_in_each_spelling() {
    let sim = simulator().await;
    let provider = provider(&sim);
    for (flag, verified) in [
        (serde_json::json!(true), true),
        (serde_json::json!("1"), true),
        (serde_json::json!("true"), true),
        (serde_json::json!(false), false),
        (serde_json::json!("0"), false),
    ] {
        let account =
            MicrosoftAccount::work(CONTOSO, "ada@contoso.com").with_xms_edov(flag.clone());
        sim.add_user(
            SimUser::new("ada-work", "ada-work")
                .with_email("ada@contoso.com", false)
                .with_microsoft(account),
        );
        let login = FX.flow().sign_in_as(&provider, "ada-work").await.unwrap();
        assert_eq!(email(&login), Some("ada@contoso.com"));
        assert_eq!(login.identity.email_verified, verified, "{flag}");
    }
}

#[tokio::test]
async fn without_the_email_scope_a_personal_account_has_only_an_unverified_username() {
    let sim = simulator().await;
    let mut settings = FX.settings(&sim);
    settings.scopes = Some(vec!["openid".into(), "profile".into()]);
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(email(&login), Some("ada@outlook.com"), "preferred_username");
    assert!(!login.identity.email_verified);
}

#[tokio::test]
async fn without_profile_or_email_the_identity_has_no_email() {
    let sim = simulator().await;
    let mut settings = FX.settings(&sim);
    settings.scopes = Some(vec!["openid".into()]);
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(login.identity.email, None);
    assert!(!login.identity.email_verified);
    assert_eq!(login.identity.full_name, None);
}
