//! From Google's verified id_token and userinfo answer to the normalised identity.
//!
//! The subject is the id_token's `sub`; the userinfo answer must be about the same person.
//! Email and `email_verified` come from the id_token when it has an email (it is signed),
//! else from userinfo; a malformed email counts as none. Name and picture: id_token first.

use serde::Deserialize;
use social_login_domain::{Email, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_id_token::claims::{IdTokenClaims, lenient_bool};
use social_login_ports::ProviderError;
use social_login_provider_core::ObjectOnly;

/// `GET /v1/userinfo` (PROVIDERS.md §1.5). No `Debug`: it holds an email.
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
        provider: ProviderKey::GOOGLE,
        subject,
        email_verified: email.is_some() && verified == Some(true),
        email,
        full_name: non_blank(claims.name).or_else(|| non_blank(userinfo.name)),
        avatar_url: non_blank(claims.picture).or_else(|| non_blank(userinfo.picture)),
    })
}

/// Maps the verified claims of an id_token an app presented: no userinfo call (there is no
/// access token), so email, name and picture come from the token alone.
pub fn from_claims(claims: IdTokenClaims) -> Result<ProviderIdentity, ProviderError> {
    let userinfo = UserInfo {
        sub: claims.sub.clone().unwrap_or_default(),
        ..UserInfo::default()
    };
    to_identity(claims, userinfo)
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn claims(value: Value) -> IdTokenClaims {
        serde_json::from_value(value).unwrap()
    }

    fn userinfo(value: Value) -> UserInfo {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn id_token_claims_win_for_email_and_profile() {
        let identity = to_identity(
            claims(
                json!({"sub": "1", "email": "ada@example.com", "email_verified": true,
                "name": "Ada", "picture": "https://p.example/a"}),
            ),
            userinfo(
                json!({"sub": "1", "email": "other@example.com", "email_verified": false,
                "name": "Other"}),
            ),
        )
        .unwrap();
        assert_eq!(identity.subject.as_str(), "1");
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));
        assert_eq!(identity.avatar_url.as_deref(), Some("https://p.example/a"));
    }

    #[test]
    fn userinfo_fills_in_what_the_id_token_lacks() {
        let identity = to_identity(
            claims(json!({"sub": "1"})),
            userinfo(
                json!({"sub": "1", "email": "ada@example.com", "email_verified": "true",
                "name": "Ada"}),
            ),
        )
        .unwrap();
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));
    }

    #[test]
    fn a_userinfo_answer_about_someone_else_is_refused() {
        let error = to_identity(claims(json!({"sub": "1"})), userinfo(json!({"sub": "2"})));
        assert!(matches!(error, Err(ProviderError::UserInfo(m)) if m.contains("subject")));
    }

    #[test]
    fn an_unverified_or_malformed_email_never_counts_as_verified() {
        let unverified = to_identity(
            claims(json!({"sub": "1", "email": "ada@example.com"})),
            userinfo(json!({"sub": "1", "email_verified": true})),
        )
        .unwrap();
        assert!(unverified.email.is_some() && !unverified.email_verified);

        let malformed = to_identity(
            claims(json!({"sub": "1", "email": "not an email", "email_verified": true})),
            userinfo(json!({"sub": "1"})),
        )
        .unwrap();
        assert_eq!(malformed.email, None);
        assert!(!malformed.email_verified);
    }

    #[test]
    fn a_presented_token_alone_gives_the_identity() {
        let identity = from_claims(claims(
            json!({"sub": "1", "email": "ada@example.com", "email_verified": true,
                "name": "Ada", "picture": "https://p.example/a"}),
        ))
        .unwrap();
        assert_eq!(identity.subject.as_str(), "1");
        assert_eq!(identity.email.unwrap().as_str(), "ada@example.com");
        assert!(identity.email_verified);
        assert_eq!(identity.full_name.as_deref(), Some("Ada"));

        let bare = from_claims(claims(json!({"sub": "1", "email_verified": true}))).unwrap();
        assert_eq!(bare.email, None);
        assert!(!bare.email_verified);
        assert!(from_claims(claims(json!({}))).is_err());
    }
}
