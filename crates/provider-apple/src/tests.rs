//! The id_token claims and the posted name through the declaration and the quirks, on
//! documents alone; the problems `check-config` reports.

use super::*;
use serde_json::{Value, json};
use social_login_domain::ProviderIdentity;
use social_login_domain::ProviderKey;
use social_login_ports::{PostBody, ProviderError, SystemClock};
use social_login_provider_core::offline::identity_of;
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_core::{EndpointOverrides, ProblemField};
use social_login_simulator::APPLE_TEST_KEY_PEM;

const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";
const ADA: &str = r#"{"user": {"name": {"firstName": "Ada", "lastName": "Lovelace"}}}"#;

fn quirks() -> AppleQuirks {
    let key = SecretText::new(APPLE_TEST_KEY_PEM);
    let signer = ClientSecretSigner::new("T", "K", &key, "com.example.web", Arc::new(SystemClock));
    AppleQuirks::new(signer.unwrap())
}

async fn identity(claims: Value, posted: Option<&str>) -> Result<ProviderIdentity, ProviderError> {
    let post_body = posted.map(PostBody::new);
    identity_of(ProviderKey::APPLE, &quirks(), &[claims], post_body.as_ref()).await
}

#[tokio::test]
async fn a_first_login_takes_the_posted_name() {
    let claims = json!({"sub": SUB, "email": "ada@example.com", "email_verified": "true"});
    let identity = identity(claims, Some(ADA)).await.unwrap();
    assert_eq!(identity.provider, ProviderKey::APPLE);
    assert_eq!(identity.subject.as_str(), SUB);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(identity.avatar_url, None);
}

#[tokio::test]
async fn a_later_login_has_no_name_and_that_is_not_an_error() {
    let blank = r#"{"user": {"name": {"firstName": "  "}}}"#;
    for posted in [None, Some(blank), Some("not json")] {
        let identity = identity(json!({"sub": SUB, "name": "Token Name"}), posted).await;
        assert_eq!(identity.unwrap().full_name, None, "{posted:?}");
    }
}

#[tokio::test]
async fn email_verified_may_be_a_string_or_a_boolean() {
    let cases = [
        (json!("true"), true),
        (json!(true), true),
        (json!("false"), false),
    ];
    for (raw, verified) in cases
        .into_iter()
        .chain([(json!(false), false), (json!("yes"), false)])
    {
        let claims = json!({"sub": SUB, "email": "ada@example.com", "email_verified": raw,
                            "is_private_email": raw});
        assert_eq!(
            identity(claims, None).await.unwrap().email_verified,
            verified,
            "{raw}"
        );
    }
}

#[tokio::test]
async fn a_relay_address_is_kept_exactly_as_received() {
    let relay = "X7k2P9q4m1@privaterelay.appleid.com";
    let claims = json!({"sub": SUB, "email": relay, "email_verified": "true",
                        "is_private_email": "true"});
    let identity = identity(claims, None).await.unwrap();
    assert_eq!(identity.email.unwrap().as_str(), relay);
    assert!(identity.email_verified);
}

#[tokio::test]
async fn no_or_a_malformed_email_means_no_email_and_not_verified() {
    for claims in [
        json!({"sub": SUB, "email_verified": true}),
        json!({"sub": SUB, "email": "not an email", "email_verified": true}),
    ] {
        let identity = identity(claims, None).await.unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }
}

#[tokio::test]
async fn an_unusable_subject_is_a_user_info_failure() {
    let error = identity(json!({"sub": ""}), None).await.unwrap_err();
    assert!(matches!(error, ProviderError::UserInfo(m) if m.contains("`/sub`")));
}

fn settings(signing: Option<SigningKey>) -> ProviderSettings {
    ProviderSettings {
        client_id: "com.example.web".into(),
        client_secret: SecretText::new(""),
        redirect_uri: "https://app.example.com/auth/callback/apple".into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        endpoints: EndpointOverrides::default(),
        signing,
    }
}

fn signing(team: &str, key: &str, pem: &str) -> Option<SigningKey> {
    Some(SigningKey {
        team_id: team.into(),
        key_id: key.into(),
        private_key_pem: SecretText::new(pem),
    })
}

fn service_fields(problems: &[SettingsProblem]) -> Vec<&'static str> {
    problems
        .iter()
        .filter_map(|problem| match problem.field {
            ProblemField::Service(field) => Some(field),
            ProblemField::Provider(_) => None,
        })
        .collect()
}

fn apple() -> &'static ProviderSpec {
    built_in_spec(ProviderKey::APPLE).unwrap()
}

#[test]
fn no_static_secret_is_needed_but_the_signing_settings_are() {
    let good = settings(signing("T", "K", APPLE_TEST_KEY_PEM));
    assert_eq!(problems(apple(), &good), []);
    for blank in [settings(signing(" ", "", "")), settings(None)] {
        let problems = problems(apple(), &blank);
        let fields = ["apple_team_id", "apple_key_id", "apple_private_key_pem"];
        assert_eq!(service_fields(&problems), fields);
        assert!(problems.iter().all(|p| p.message == SIGNING_REQUIRED));
    }
}

#[test]
fn an_unusable_key_is_a_problem_with_its_reason_never_the_key() {
    let sec1 = APPLE_TEST_KEY_PEM.replace("PRIVATE KEY", "EC PRIVATE KEY");
    let problems = problems(apple(), &settings(signing("T", "K", &sec1)));
    assert_eq!(service_fields(&problems), ["apple_private_key_pem"]);
    assert!(problems[0].message.contains("pkcs8"));
    assert!(!problems[0].message.contains("MIG"));
}
