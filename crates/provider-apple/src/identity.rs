//! From Apple's verified id_token and the first-login name to the normalised identity.
//!
//! Apple has no userinfo endpoint (spec 4.7.3): subject, email and `email_verified` come
//! from the signed id_token only. `email_verified` may be a boolean or the string `"true"`
//! (the claims decoder takes both; `is_private_email` likewise varies and is not needed).
//! A private relay address (`…@privaterelay.appleid.com`) is an email like any other and is
//! kept as received (spec §2). The name never is in the token: it is the one the client
//! posted from Apple's first form_post (spec 4.7.2), and absent on later logins.

use social_login_domain::{Email, PersonName, ProviderIdentity, ProviderKey, ProviderSubject};
use social_login_id_token::IdTokenClaims;
use social_login_ports::ProviderError;

/// Maps the verified claims and the posted name, if this is a first login.
pub fn to_identity(
    claims: IdTokenClaims,
    posted_name: Option<&PersonName>,
) -> Result<ProviderIdentity, ProviderError> {
    let subject = ProviderSubject::parse(claims.sub.unwrap_or_default())
        .map_err(|_| ProviderError::UserInfo("id_token subject is not usable".into()))?;
    // A malformed address counts as none rather than failing the sign-in.
    let email = claims.email.and_then(|raw| Email::parse(&raw).ok());
    Ok(ProviderIdentity {
        provider: ProviderKey::APPLE,
        subject,
        email_verified: email.is_some() && claims.email_verified == Some(true),
        email,
        full_name: posted_name.and_then(PersonName::full_name),
        avatar_url: None,
    })
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";

    fn claims(value: Value) -> IdTokenClaims {
        serde_json::from_value(value).unwrap()
    }

    fn ada() -> PersonName {
        PersonName {
            first_name: Some("Ada".into()),
            last_name: Some("Lovelace".into()),
        }
    }

    #[test]
    fn a_first_login_takes_the_posted_name() {
        let identity = to_identity(
            claims(json!({"sub": SUB, "email": "ada@example.com", "email_verified": "true"})),
            Some(&ada()),
        )
        .unwrap();
        assert_eq!(identity.provider, ProviderKey::APPLE);
        assert_eq!(identity.subject.as_str(), SUB);
        assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(identity.avatar_url, None);
    }

    #[test]
    fn a_later_login_has_no_name_and_that_is_not_an_error() {
        let identity = to_identity(claims(json!({"sub": SUB})), None).unwrap();
        assert_eq!(identity.full_name, None);
        let blank = PersonName {
            first_name: Some("  ".into()),
            last_name: None,
        };
        let identity = to_identity(claims(json!({"sub": SUB})), Some(&blank)).unwrap();
        assert_eq!(identity.full_name, None);
    }

    #[test]
    fn email_verified_may_be_a_string_or_a_boolean() {
        for (raw, verified) in [
            (json!("true"), true),
            (json!(true), true),
            (json!("false"), false),
            (json!(false), false),
            (json!("yes"), false),
        ] {
            let identity = to_identity(
                claims(
                    json!({"sub": SUB, "email": "ada@example.com", "email_verified": raw,
                              "is_private_email": raw}),
                ),
                None,
            )
            .unwrap();
            assert_eq!(identity.email_verified, verified, "{raw}");
        }
    }

    #[test]
    fn a_relay_address_is_kept_exactly_as_received() {
        let relay = "X7k2P9q4m1@privaterelay.appleid.com";
        let identity = to_identity(
            claims(json!({"sub": SUB, "email": relay, "email_verified": "true",
                          "is_private_email": "true"})),
            None,
        )
        .unwrap();
        assert_eq!(identity.email.unwrap().as_str(), relay);
        assert!(identity.email_verified);
    }

    #[test]
    fn no_or_a_malformed_email_means_no_email_and_not_verified() {
        for value in [
            json!({"sub": SUB, "email_verified": true}),
            json!({"sub": SUB, "email": "not an email", "email_verified": true}),
        ] {
            let identity = to_identity(claims(value), None).unwrap();
            assert_eq!(identity.email, None);
            assert!(!identity.email_verified);
        }
    }

    #[test]
    fn an_unusable_subject_is_a_user_info_failure() {
        let error = to_identity(claims(json!({"sub": ""})), None).unwrap_err();
        assert_eq!(
            error,
            ProviderError::UserInfo("id_token subject is not usable".into())
        );
    }
}
