//! From LinkedIn's verified id_token and userinfo answer to the normalised identity.
//!
//! The two disagree on types (PROVIDERS.md §5.5): `email_verified` is the string `"true"`
//! in the id_token and a boolean in userinfo; `locale` is a string in one and an object in
//! the other. Both shapes decode (`locale` is not part of the identity, so it is simply not
//! read). The subject is the id_token's `sub`, and userinfo must be about the same member.
//! Email and its verification come from the id_token when it has an email (it is signed),
//! else from userinfo; name and picture likewise.

use serde::Deserialize;
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_id_token::claims::{IdTokenClaims, lenient_bool};
use social_login_ports::ProviderError;
use social_login_provider_core::ObjectOnly;

/// `GET /v2/userinfo`. No `Debug`: it holds an email.
#[derive(Clone, Default, Deserialize)]
pub struct UserInfo {
    pub sub: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, deserialize_with = "lenient_bool")]
    pub email_verified: Option<bool>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub picture: Option<String>,
    /// Decoded from a JSON object only, never from an array in field order.
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

/// Maps the verified claims and the userinfo answer.
pub fn to_identity(
    claims: IdTokenClaims,
    userinfo: UserInfo,
) -> Result<ProviderIdentity, ProviderError> {
    let sub = claims.sub.unwrap_or_default();
    if sub != userinfo.sub {
        return Err(ProviderError::UserInfo(
            "userinfo subject differs from the id_token subject".into(),
        ));
    }
    let subject = ProviderSubject::parse(sub)
        .map_err(|_| ProviderError::UserInfo("id_token subject is not usable".into()))?;
    let (email, verified) = match claims.email {
        Some(email) => (Some(email), claims.email_verified),
        None => (userinfo.email, userinfo.email_verified),
    };
    let email = email.and_then(|raw| Email::parse(&raw).ok());
    Ok(ProviderIdentity {
        provider: ProviderKey::LINKEDIN,
        subject,
        email_verified: email.is_some() && verified == Some(true),
        email,
        full_name: non_blank(claims.name).or_else(|| non_blank(userinfo.name)),
        avatar_url: non_blank(claims.picture).or_else(|| non_blank(userinfo.picture)),
    })
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const PICTURE: &str = "https://media.licdn.com/dms/image/v2/C4E03AQ-example/1";

    fn claims(value: Value) -> IdTokenClaims {
        serde_json::from_value(value).unwrap()
    }

    fn userinfo(value: Value) -> UserInfo {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn both_shapes_of_email_verified_and_locale_are_understood() {
        let identity = to_identity(
            claims(json!({"sub": "Qx81mZ_a2", "email": "ada@example.com",
                "email_verified": "true", "locale": "en_US", "name": "Ada Lovelace",
                "picture": PICTURE})),
            userinfo(json!({"sub": "Qx81mZ_a2", "email": "ada@example.com",
                "email_verified": true, "locale": {"country": "US", "language": "en"}})),
        )
        .unwrap();
        assert_eq!(identity.provider, ProviderKey::LINKEDIN);
        assert_eq!(identity.subject.as_str(), "Qx81mZ_a2");
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(identity.avatar_url.as_deref(), Some(PICTURE));
    }

    #[test]
    fn userinfo_fills_in_what_the_id_token_lacks() {
        let identity = to_identity(
            claims(json!({"sub": "Qx81mZ_a2"})),
            userinfo(json!({"sub": "Qx81mZ_a2", "email": "ada@example.com",
                "email_verified": true, "name": "Ada", "picture": PICTURE})),
        )
        .unwrap();
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));
        assert_eq!(identity.avatar_url.as_deref(), Some(PICTURE));
    }

    #[test]
    fn the_signed_verdict_wins_over_userinfo() {
        let identity = to_identity(
            claims(json!({"sub": "1", "email": "ada@example.com", "email_verified": "false"})),
            userinfo(json!({"sub": "1", "email": "ada@example.com", "email_verified": true})),
        )
        .unwrap();
        assert!(identity.email.is_some() && !identity.email_verified);
    }

    #[test]
    fn a_userinfo_answer_about_someone_else_is_refused() {
        let error = to_identity(claims(json!({"sub": "1"})), userinfo(json!({"sub": "2"})));
        assert!(matches!(error, Err(ProviderError::UserInfo(m)) if m.contains("subject")));
    }

    #[test]
    fn no_email_means_no_email_and_nothing_verified() {
        let identity = to_identity(
            claims(json!({"sub": "1", "email_verified": "true"})),
            userinfo(json!({"sub": "1", "email_verified": true})),
        )
        .unwrap();
        assert_eq!(identity.email, None);
        assert!(!identity.email_verified);
    }
}
