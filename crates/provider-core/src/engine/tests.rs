//! The engine's steps that need no provider on the network: the authorization URL, the
//! native sign-in through an id_token check, and what a plan without revocation answers.
//! The code flow over HTTP is tested per provider against the simulator.

use super::*;
use crate::id_token_check::Presented;
use crate::quirks::{Finish, NoQuirks};
use crate::settings::ProviderSettings;
use serde_json::{Map, Value, json};
use social_login_domain::{ProviderSubject, SecretText, StateToken};
use social_login_provider_spec::built_in_spec;
use std::collections::HashMap;

fn settings() -> ProviderSettings {
    crate::settings::test_settings()
}

fn plan(key: ProviderKey) -> ProviderPlan {
    ProviderPlan::resolve(built_in_spec(key).unwrap(), &settings()).unwrap()
}

/// Answers every token with fixed claims, and says which nonce it was asked about.
#[derive(Debug)]
struct FixedClaims(Value);

#[async_trait]
impl IdTokenCheck for FixedClaims {
    async fn verify(
        &self,
        _: &SecretText,
        _: &SecretText,
    ) -> Result<Map<String, Value>, ProviderError> {
        Err(ProviderError::UserInfo("not in these tests".into()))
    }

    async fn verify_presented(
        &self,
        token: &SecretText,
        raw_nonce: Option<&SecretText>,
    ) -> Result<Presented, ProviderError> {
        if token.expose() != "good-token" || raw_nonce.is_some_and(|n| n.expose() != "n-1") {
            return Err(ProviderError::UserInfo(
                "id_token nonce does not match".into(),
            ));
        }
        Ok(Presented {
            claims: self.0.as_object().unwrap().clone(),
            issued_at: USABLE_UNTIL - time::Duration::HOUR,
            usable_until: USABLE_UNTIL,
        })
    }
}

/// Until when the checked tokens of these tests would verify: 2030-01-01.
const USABLE_UNTIL: time::OffsetDateTime =
    match time::OffsetDateTime::from_unix_timestamp(1_893_456_000) {
        Ok(time) => time,
        Err(_) => panic!("a valid timestamp"),
    };

/// Puts the first document's `tid` in front of the subject, as a tenant-scoped provider does.
#[derive(Debug)]
struct TenantScoped;

#[async_trait]
impl Quirks for TenantScoped {
    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let (cx, identity) = (&finish.cx, &mut finish.identity);
        let tid = cx
            .first()
            .and_then(|claims| claims.get("tid"))
            .and_then(Value::as_str);
        let scoped = format!("{}:{}", tid.unwrap_or("none"), identity.subject.as_str());
        identity.subject = ProviderSubject::parse(scoped).unwrap();
        // An email the quirk drops can no longer be verified.
        identity.email = None;
        assert!(
            cx.access_token.is_none(),
            "no provider token comes with an app's id_token"
        );
        Ok(())
    }
}

fn engine(key: ProviderKey, quirks: Arc<dyn Quirks>, claims: Option<Value>) -> Engine {
    let check = claims.map(|claims| Arc::new(FixedClaims(claims)) as Arc<dyn IdTokenCheck>);
    Engine::new(plan(key), quirks, check, crate::http_client::test_client()).unwrap()
}

fn request() -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse("state-0123456789abcdef").unwrap(),
        pkce_verifier: SecretText::new("verifier-0123456789-0123456789-0123456789ab"),
        nonce: SecretText::new("nonce-1"),
        extra_scopes: Default::default(),
    }
}

fn query(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

fn input(nonce: Option<&str>) -> IdTokenInput {
    IdTokenInput {
        id_token: SecretText::new("good-token"),
        nonce: nonce.map(SecretText::new),
        post_body: None,
    }
}

#[test]
fn an_oidc_authorization_carries_the_nonce_and_the_declared_parameters() {
    let apple = engine(ProviderKey::APPLE, Arc::new(NoQuirks), Some(json!({})));
    let query = query(&apple.authorization_url(&request()).unwrap());
    assert_eq!(query["nonce"], "nonce-1");
    assert_eq!(query["response_mode"], "form_post");
    assert_eq!(query["scope"], "name email");
    assert_eq!(query["code_challenge_method"], "S256");
}

#[test]
fn a_provider_is_listed_as_its_declaration_says() {
    let mut spec = built_in_spec(ProviderKey::DISCORD).unwrap().clone();
    spec.key = ProviderKey::parse("chat-corp").unwrap();
    spec.display_name = "Chat Corp".into();
    let plan = ProviderPlan::resolve(&spec, &settings()).unwrap();
    let http = crate::http_client::test_client();
    let info = Engine::new(plan, Arc::new(NoQuirks), None, http)
        .unwrap()
        .info();
    assert_eq!(info.key, spec.key);
    assert_eq!(
        info.display_name, "Chat Corp",
        "not the key: the declared name"
    );
    assert_eq!((info.kind, info.id_token), (ProviderKind::OAuth2, false));
    // The built-ins: their documented names, and id_tokens from apps where they take them.
    let listed: Vec<(String, bool)> = ProviderKey::BUILT_IN
        .into_iter()
        .map(|key| {
            let oidc = built_in_spec(key).unwrap().kind == ProviderKind::Oidc;
            let info = engine(key, Arc::new(NoQuirks), oidc.then(|| json!({}))).info();
            (info.display_name, info.id_token)
        })
        .collect();
    let names: Vec<&str> = listed.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names.join(" "),
        "Google GitHub Facebook Microsoft LinkedIn Discord X Apple"
    );
    let native: Vec<String> = (listed.iter().zip(ProviderKey::BUILT_IN))
        .filter(|((_, native), _)| *native)
        .map(|(_, key)| key.to_string())
        .collect();
    assert_eq!(native, ["google", "microsoft", "apple"]);
}

#[test]
fn an_oauth2_authorization_carries_no_nonce() {
    let discord = engine(ProviderKey::DISCORD, Arc::new(NoQuirks), None);
    let query = query(&discord.authorization_url(&request()).unwrap());
    assert!(!query.contains_key("nonce"), "{query:?}");
    assert_eq!(query["client_id"], "client-1");
    assert_eq!(discord.key(), ProviderKey::DISCORD);
}

#[test]
fn exactly_the_oidc_kind_takes_an_id_token_check() {
    let no_check = Engine::new(
        plan(ProviderKey::GOOGLE),
        Arc::new(NoQuirks),
        None,
        crate::http_client::test_client(),
    );
    assert!(no_check.is_err());
    let check: Arc<dyn IdTokenCheck> = Arc::new(FixedClaims(json!({})));
    let oauth2 = Engine::new(
        plan(ProviderKey::GITHUB),
        Arc::new(NoQuirks),
        Some(check),
        crate::http_client::test_client(),
    );
    assert!(oauth2.is_err());
}

#[tokio::test]
async fn a_presented_id_token_is_mapped_from_its_claims_and_finished_by_the_quirk() {
    let claims = json!({"sub": "s-1", "tid": "t-1", "email": "ada@example.com", "name": "Ada",
                        "aud": ["another-app", "client-1"]});
    let microsoft = engine(ProviderKey::MICROSOFT, Arc::new(TenantScoped), Some(claims));
    let presented = microsoft
        .sign_in_with_id_token(input(Some("n-1")))
        .await
        .unwrap();
    assert_eq!(presented.usable_until, USABLE_UNTIL);
    assert_eq!(presented.audience, "client-1", "the audience that is ours");
    let identity = presented.identity;
    assert_eq!(identity.provider, ProviderKey::MICROSOFT);
    assert_eq!(identity.subject.as_str(), "t-1:s-1");
    assert_eq!(identity.full_name.as_deref(), Some("Ada"));
    assert!(
        !identity.email_verified,
        "the declaration trusts no email by itself"
    );
    let refused = microsoft.sign_in_with_id_token(input(Some("other"))).await;
    assert!(matches!(refused, Err(ProviderError::UserInfo(_))));
}

#[tokio::test]
async fn native_sign_in_needs_a_declaration_that_allows_it() {
    let discord = engine(ProviderKey::DISCORD, Arc::new(NoQuirks), None);
    let linkedin = engine(
        ProviderKey::LINKEDIN,
        Arc::new(NoQuirks),
        Some(json!({"sub": "1"})),
    );
    for provider in [discord, linkedin] {
        assert_eq!(
            provider.sign_in_with_id_token(input(None)).await,
            Err(ProviderError::IdTokenNotSupported)
        );
    }
}

#[tokio::test]
async fn a_plan_without_revocation_sends_nothing() {
    let microsoft = engine(ProviderKey::MICROSOFT, Arc::new(NoQuirks), Some(json!({})));
    let grant = ProviderGrant {
        access_token: SecretText::new("at"),
        refresh_token: None,
        client_id: None,
    };
    assert_eq!(microsoft.revoke(grant).await, Ok(Revoked::NotSupported));
}

#[test]
fn debug_output_shows_no_secret() {
    let printed = format!(
        "{:?}",
        engine(ProviderKey::DISCORD, Arc::new(NoQuirks), None)
    );
    assert!(!printed.contains("s3cret"), "{printed}");
}
