//! The id_token claims through the declaration and the quirks, on documents alone.

use super::*;
use serde_json::json;
use social_login_domain::ProviderKey;
use social_login_provider_core::offline::identity_of;

const WORK: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

fn quirks() -> MicrosoftQuirks {
    MicrosoftQuirks {
        issuer_template: "https://login.microsoftonline.com/{tenantid}/v2.0".into(),
    }
}

async fn signed_in(extra: Value) -> Result<ProviderIdentity, ProviderError> {
    let mut claims = json!({"sub": "AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc", "tid": WORK});
    for (name, value) in extra.as_object().unwrap() {
        claims[name] = value.clone();
    }
    identity_of(ProviderKey::MICROSOFT, &quirks(), &[claims], None).await
}

async fn identity(extra: Value) -> ProviderIdentity {
    signed_in(extra).await.unwrap()
}

fn email_of(identity: &ProviderIdentity) -> Option<&str> {
    identity.email.as_ref().map(Email::as_str)
}

#[tokio::test]
async fn the_subject_is_the_sub_scoped_by_the_tenant() {
    let identity = identity(json!({"name": " Ada Lovelace "})).await;
    let expected = format!("{WORK}:AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc");
    assert_eq!(identity.subject.as_str(), expected);
    assert_eq!(identity.provider, ProviderKey::MICROSOFT);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(identity.avatar_url, None);
}

#[tokio::test]
async fn a_work_email_without_xms_edov_is_not_verified() {
    let identity = identity(json!({"email": "ceo@victim.example"})).await;
    assert_eq!(email_of(&identity), Some("ceo@victim.example"));
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn xms_edov_verifies_a_work_email_in_each_of_its_spellings() {
    let verified = [json!(true), json!("1"), json!("true"), json!("TRUE")];
    let not = [
        json!(false),
        json!("0"),
        json!("false"),
        json!(1),
        Value::Null,
    ];
    let cases = verified.map(|flag| (flag, true)).into_iter();
    for (flag, expected) in cases.chain(not.map(|flag| (flag, false))) {
        let identity = identity(json!({"email": "ada@contoso.com", "xms_edov": flag})).await;
        assert_eq!(identity.email_verified, expected, "{flag}");
    }
}

#[tokio::test]
async fn a_personal_account_email_is_verified() {
    let personal = json!({"tid": PERSONAL_ACCOUNT_TENANT, "email": "ada@outlook.com"});
    let identity = identity(personal).await;
    assert!(identity.email_verified);
    assert!(
        identity
            .subject
            .as_str()
            .starts_with(PERSONAL_ACCOUNT_TENANT)
    );
}

#[tokio::test]
async fn preferred_username_stands_in_for_a_missing_email_but_is_never_verified() {
    let upn = identity(json!({"preferred_username": "ada@contoso.onmicrosoft.com",
        "xms_edov": true}))
    .await;
    assert_eq!(email_of(&upn), Some("ada@contoso.onmicrosoft.com"));
    assert!(!upn.email_verified);

    let personal = identity(json!({"tid": PERSONAL_ACCOUNT_TENANT,
        "preferred_username": "ada@outlook.com"}))
    .await;
    assert_eq!(email_of(&personal), Some("ada@outlook.com"));
    assert!(!personal.email_verified);

    let phone = identity(json!({"preferred_username": "+1 555 0100"})).await;
    assert_eq!(phone.email, None);
    assert!(!phone.email_verified);
}

#[tokio::test]
async fn a_malformed_email_falls_back_to_preferred_username() {
    let identity = identity(json!({"email": "not an email", "xms_edov": true,
        "preferred_username": "ada@contoso.com"}))
    .await;
    assert_eq!(email_of(&identity), Some("ada@contoso.com"));
    assert!(!identity.email_verified);
}

#[tokio::test]
async fn a_token_without_a_usable_tenant_id_is_refused() {
    for tid in [Value::Null, json!("common"), json!(5)] {
        let error = signed_in(json!({ "tid": tid })).await.unwrap_err();
        let expected = ProviderError::UserInfo("id_token has no tenant id (tid)".into());
        assert_eq!(error, expected, "{tid}");
    }
}
