//! The verifier a provider's plan describes, as the engine's id_token check: issuers, nonce
//! rule and other client ids from the plan, an issuer rule from the quirk, raw claims out.

use crate::bench::*;
use jsonwebtoken::Algorithm;
use serde_json::{Map, Value, json};
use social_login_conformance::ManualClock;
use social_login_domain::{ProviderKey, SecretText};
use social_login_id_token::IdTokenVerifier;
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::spec::{ProviderSpec, built_in_spec};
use social_login_provider_core::{
    EndpointOverrides, IdTokenCheck, NoQuirks, ProviderPlan, ProviderSettings, Quirks,
    build_http_client,
};
use std::sync::Arc;

/// Accepts only the issuer named by the token's own `tenant` claim.
#[derive(Debug)]
struct TenantIssuer;

impl Quirks for TenantIssuer {
    fn issuer(&self, iss: &str, claims: &Map<String, Value>) -> Option<bool> {
        let tenant = claims.get("tenant").and_then(Value::as_str)?;
        Some(iss == format!("https://idp.example/{tenant}"))
    }
}

fn check(bench: &Bench, key: ProviderKey, quirks: Arc<dyn Quirks>) -> Arc<dyn IdTokenCheck> {
    let plan = plan(bench, built_in_spec(key).unwrap());
    let http = build_http_client(TIMEOUT).unwrap();
    Arc::new(IdTokenVerifier::for_plan(&plan, quirks, &http, clock()).unwrap())
}

fn clock() -> Arc<dyn Clock> {
    ManualClock::starting_now()
}

fn plan(bench: &Bench, spec: &ProviderSpec) -> ProviderPlan {
    let settings = ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new("secret"),
        redirect_uri: "http://127.0.0.1:4000/cb".into(),
        scopes: None,
        pkce: true,
        client_ids: vec!["com.example.ios".into()],
        signing: None,
        endpoints: EndpointOverrides {
            jwks: Some(bench.sim.google().jwks),
            ..EndpointOverrides::default()
        },
    };
    ProviderPlan::resolve(spec, &settings).unwrap()
}

async fn verify(
    check: &dyn IdTokenCheck,
    claims: &Value,
) -> Result<Map<String, Value>, ProviderError> {
    check
        .verify(&SecretText::new(signed(claims)), &SecretText::new(NONCE))
        .await
}

#[tokio::test]
async fn the_plan_s_issuers_are_accepted_and_every_claim_comes_back() {
    let bench = bench().await;
    let google = check(&bench, ProviderKey::GOOGLE, Arc::new(NoQuirks));
    for issuer in [ISSUER, BARE_ISSUER] {
        let claims = with_changes(bench.claims(), json!({"iss": issuer, "hd": {"x": [1]}}));
        assert_eq!(
            Value::Object(verify(&*google, &claims).await.unwrap()),
            claims
        );
    }
    let other = with_changes(bench.claims(), json!({"iss": "https://evil.example"}));
    let refused = verify(&*google, &other).await.unwrap_err();
    assert_eq!(
        refused,
        ProviderError::UserInfo("id_token issuer is not accepted".into())
    );
}

#[tokio::test]
async fn a_quirk_decides_the_issuer_from_the_token() {
    let bench = bench().await;
    let tenant = check(&bench, ProviderKey::GOOGLE, Arc::new(TenantIssuer));
    let own = json!({"iss": "https://idp.example/t-1", "tenant": "t-1"});
    assert!(
        verify(&*tenant, &with_changes(bench.claims(), own))
            .await
            .is_ok()
    );
    let foreign = json!({"iss": "https://idp.example/t-2", "tenant": "t-1"});
    assert!(
        verify(&*tenant, &with_changes(bench.claims(), foreign))
            .await
            .is_err()
    );
    // Without its claim the quirk has no rule, and the plan's issuers apply.
    assert!(verify(&*tenant, &bench.claims()).await.is_ok());
}

#[tokio::test]
async fn the_nonce_rule_is_the_plan_s() {
    let bench = bench().await;
    let no_nonce = with_changes(bench.claims(), json!({"nonce": null}));
    let google = check(&bench, ProviderKey::GOOGLE, Arc::new(NoQuirks));
    assert!(
        verify(&*google, &no_nonce).await.is_err(),
        "google requires it"
    );
    let linkedin = check(&bench, ProviderKey::LINKEDIN, Arc::new(NoQuirks));
    let linkedin_token = with_changes(no_nonce, json!({"iss": "https://www.linkedin.com/oauth"}));
    assert!(
        verify(&*linkedin, &linkedin_token).await.is_ok(),
        "linkedin never sends one"
    );
}

#[tokio::test]
async fn a_presented_token_may_name_another_client_id_of_the_plan() {
    let bench = bench().await;
    let google = check(&bench, ProviderKey::GOOGLE, Arc::new(NoQuirks));
    let ios = with_changes(
        bench.claims(),
        json!({"aud": "com.example.ios", "nonce": null}),
    );
    let token = SecretText::new(signed(&ios));
    assert!(google.verify_presented(&token, None).await.is_ok());
    assert!(
        google
            .verify(&token, &SecretText::new(NONCE))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn the_algorithms_are_the_plan_s_and_never_a_symmetric_one() {
    let bench = bench().await;
    let http = build_http_client(TIMEOUT).unwrap();
    let verifier = |algorithms: &[&str]| {
        let mut spec = built_in_spec(ProviderKey::GOOGLE).unwrap().clone();
        let rules = spec.id_token.as_mut().unwrap();
        rules.algorithms = algorithms.iter().map(|a| (*a).to_owned()).collect();
        IdTokenVerifier::for_plan(&plan(&bench, &spec), Arc::new(NoQuirks), &http, clock())
    };
    let listed = verifier(&["ES256", "RS256"]).unwrap();
    assert_eq!(listed.algorithms(), [Algorithm::ES256, Algorithm::RS256]);
    assert_eq!(
        verifier(&["RS256", "HS256"]).unwrap().algorithms(),
        [Algorithm::RS256]
    );
    for refused in [&["HS256"][..], &["none"], &[]] {
        assert!(verifier(refused).is_err(), "{refused:?}");
    }
}
