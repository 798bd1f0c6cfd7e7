//! From Microsoft's verified id_token to the normalised identity.
//!
//! Subject: `"{tid}:{sub}"`. `sub` is pairwise (one value per app and user) and always
//! present, while `oid` needs the `profile` scope; the tenant in front keeps a subject
//! meaningful with `common`, where every tenant issues tokens (PROVIDERS.md §0).
//!
//! Email (the nOAuth class of account takeover): any tenant administrator can put any
//! address in `email`, so it is verified only when Microsoft says so: `xms_edov` true, or
//! the personal-account tenant, whose addresses Microsoft owns or has confirmed. Without an
//! `email`, a `preferred_username` shaped like an address is kept, never verified: it is
//! a mutable UPN, not a mailbox anyone confirmed.

use super::tenant::{PERSONAL_ACCOUNT_TENANT, tenant_id};
use serde_json::Value;
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_id_token::claims::IdTokenClaims;
use social_login_ports::ProviderError;

/// Maps the verified claims.
pub fn to_identity(claims: IdTokenClaims) -> Result<ProviderIdentity, ProviderError> {
    let tid = tenant_id(&claims)
        .ok_or_else(|| ProviderError::UserInfo("id_token has no tenant id (tid)".into()))?;
    let sub = claims.sub.as_deref().unwrap_or_default();
    let subject = ProviderSubject::parse(format!("{tid}:{sub}"))
        .map_err(|_| ProviderError::UserInfo("id_token subject is not usable".into()))?;
    let vouched = tid == PERSONAL_ACCOUNT_TENANT || domain_verified(claims.extra.get("xms_edov"));
    let (email, email_verified) = match claims.email.as_deref().and_then(parse_email) {
        Some(email) => (Some(email), vouched),
        None => {
            let username = claims
                .extra
                .get("preferred_username")
                .and_then(Value::as_str);
            (username.and_then(parse_email), false)
        }
    };
    Ok(ProviderIdentity {
        provider: ProviderKey::MICROSOFT,
        subject,
        email,
        email_verified,
        full_name: claims
            .name
            .map(|name| name.trim().to_owned())
            .filter(|name| !name.is_empty()),
        // The photo is a Graph resource behind another token; not worth a call per sign-in.
        avatar_url: None,
    })
}

/// `xms_edov` ("email domain owner verified") as Microsoft sends it: `true`, `"1"` or
/// `"true"`. Anything else, absence included, is not a verification.
fn domain_verified(claim: Option<&Value>) -> bool {
    match claim {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text == "1" || text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

fn parse_email(raw: &str) -> Option<Email> {
    Email::parse(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const WORK: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

    fn identity(extra: Value) -> ProviderIdentity {
        let mut claims = json!({"sub": "AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc", "tid": WORK});
        for (name, value) in extra.as_object().unwrap() {
            claims[name] = value.clone();
        }
        to_identity(serde_json::from_value(claims).unwrap()).unwrap()
    }

    fn email_of(identity: &ProviderIdentity) -> Option<&str> {
        identity.email.as_ref().map(Email::as_str)
    }

    #[test]
    fn the_subject_is_the_sub_scoped_by_the_tenant() {
        let identity = identity(json!({"name": " Ada Lovelace "}));
        assert_eq!(
            identity.subject.as_str(),
            format!("{WORK}:AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc")
        );
        assert_eq!(identity.provider, ProviderKey::MICROSOFT);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(identity.avatar_url, None);
    }

    #[test]
    fn a_work_email_without_xms_edov_is_not_verified() {
        let identity = identity(json!({"email": "ceo@victim.example"}));
        assert_eq!(email_of(&identity), Some("ceo@victim.example"));
        assert!(!identity.email_verified);
    }

    #[test]
    fn xms_edov_verifies_a_work_email_in_each_of_its_spellings() {
        for (flag, verified) in [
            (json!(true), true),
            (json!("1"), true),
            (json!("true"), true),
            (json!("TRUE"), true),
            (json!(false), false),
            (json!("0"), false),
            (json!("false"), false),
            (json!(1), false),
            (Value::Null, false),
        ] {
            let identity = identity(json!({"email": "ada@contoso.com", "xms_edov": flag}));
            assert_eq!(identity.email_verified, verified, "{flag}");
        }
    }

    #[test]
    fn a_personal_account_email_is_verified() {
        let identity =
            identity(json!({"tid": PERSONAL_ACCOUNT_TENANT, "email": "ada@outlook.com"}));
        assert!(identity.email_verified);
        assert!(
            identity
                .subject
                .as_str()
                .starts_with(PERSONAL_ACCOUNT_TENANT)
        );
    }

    #[test]
    fn preferred_username_stands_in_for_a_missing_email_but_is_never_verified() {
        let upn = identity(json!({"preferred_username": "ada@contoso.onmicrosoft.com",
            "xms_edov": true}));
        assert_eq!(email_of(&upn), Some("ada@contoso.onmicrosoft.com"));
        assert!(!upn.email_verified);

        let personal = identity(json!({"tid": PERSONAL_ACCOUNT_TENANT,
            "preferred_username": "ada@outlook.com"}));
        assert_eq!(email_of(&personal), Some("ada@outlook.com"));
        assert!(!personal.email_verified);

        let phone = identity(json!({"preferred_username": "+1 555 0100"}));
        assert_eq!(phone.email, None);
        assert!(!phone.email_verified);
    }

    #[test]
    fn a_malformed_email_falls_back_to_preferred_username() {
        let identity = identity(json!({"email": "not an email", "xms_edov": true,
            "preferred_username": "ada@contoso.com"}));
        assert_eq!(email_of(&identity), Some("ada@contoso.com"));
        assert!(!identity.email_verified);
    }

    #[test]
    fn a_token_without_a_usable_tenant_id_is_refused() {
        let claims: IdTokenClaims = serde_json::from_value(json!({"sub": "1"})).unwrap();
        let error = to_identity(claims).err().unwrap();
        assert_eq!(
            error,
            ProviderError::UserInfo("id_token has no tenant id (tid)".into())
        );
    }
}
