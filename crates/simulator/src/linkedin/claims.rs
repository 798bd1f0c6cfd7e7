//! What the simulated LinkedIn says about a member, in its two shapes (PROVIDERS.md §5.5):
//! the id_token (`email_verified` a string, `locale` a string, no `nonce`) and userinfo
//! (`email_verified` a boolean, `locale` an object).

use super::{issuer, unix_now};
use crate::codes::Grant;
use crate::config::Provider;
use crate::id_token_fault::apply_to_claims;
use crate::state::SimState;
use crate::users::SimUser;
use serde_json::{Map, Value, json};

/// LinkedIn's id_tokens live one hour.
const LIFETIME_SECS: i64 = 3600;

/// Every simulated member is American, speaking English.
const LOCALE: (&str, &str) = ("en", "US");

/// Signs the id_token for `grant`. The grant's nonce is deliberately left out: LinkedIn
/// does not echo it (a `wrong_nonce` fault still adds one, to test the check of a present one).
pub fn issue_id_token(sim: &SimState, grant: &Grant) -> String {
    let fault = sim.id_token_faults.get(Provider::Linkedin);
    let now = unix_now();
    let mut claims = json!({
        "iss": issuer(&sim.base_url),
        "aud": grant.client_id,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "sub": grant.user.id,
    });
    if let Some(object) = claims.as_object_mut() {
        object.extend(member_claims(&grant.user, &grant.scopes, Shape::IdToken));
    }
    apply_to_claims(&mut claims, fault, now);
    sim.keys.sign(&claims, fault)
}

/// Which of LinkedIn's two shapes to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    IdToken,
    Userinfo,
}

/// The claims `profile` and `email` grant, in `shape`. Absent values are left out.
pub fn member_claims(user: &SimUser, scopes: &[String], shape: Shape) -> Map<String, Value> {
    let has = |scope: &str| scopes.iter().any(|s| s == scope);
    let mut claims = Map::new();
    if has("profile") {
        if let Some(name) = &user.name {
            claims.insert("name".into(), json!(name));
            let mut parts = name.splitn(2, ' ');
            if let Some(given) = parts.next().filter(|p| !p.is_empty()) {
                claims.insert("given_name".into(), json!(given));
            }
            if let Some(family) = parts.next().filter(|p| !p.is_empty()) {
                claims.insert("family_name".into(), json!(family));
            }
        }
        if let Some(picture) = &user.avatar_url {
            claims.insert("picture".into(), json!(picture));
        }
        let (language, country) = LOCALE;
        let locale = match shape {
            Shape::IdToken => json!(format!("{language}_{country}")),
            Shape::Userinfo => json!({"country": country, "language": language}),
        };
        claims.insert("locale".into(), locale);
    }
    if has("email")
        && let Some(email) = &user.email
    {
        claims.insert("email".into(), json!(email));
        let verified = match shape {
            Shape::IdToken => json!(user.email_verified.to_string()),
            Shape::Userinfo => json!(user.email_verified),
        };
        claims.insert("email_verified".into(), verified);
    }
    claims
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ada() -> SimUser {
        SimUser::new("Qx81mZ_a2", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
            .with_avatar_url("https://media.licdn.com/ada")
    }

    fn all() -> Vec<String> {
        vec!["openid".into(), "profile".into(), "email".into()]
    }

    #[test]
    fn the_id_token_shape_has_string_email_verified_and_locale() {
        let claims = member_claims(&ada(), &all(), Shape::IdToken);
        assert_eq!(claims["email_verified"], "true");
        assert_eq!(claims["locale"], "en_US");
        assert_eq!(claims["given_name"], "Ada");
        assert_eq!(claims["family_name"], "Lovelace");
        assert_eq!(claims["picture"], "https://media.licdn.com/ada");
    }

    #[test]
    fn the_userinfo_shape_has_a_boolean_and_a_locale_object() {
        let claims = member_claims(&ada(), &all(), Shape::Userinfo);
        assert_eq!(claims["email_verified"], true);
        assert_eq!(claims["locale"], json!({"country": "US", "language": "en"}));
    }

    #[test]
    fn claims_follow_the_scopes() {
        let openid_only = member_claims(&ada(), &["openid".into()], Shape::IdToken);
        assert!(openid_only.is_empty());
        let no_email = SimUser::new("1", "x");
        assert!(!member_claims(&no_email, &all(), Shape::Userinfo).contains_key("email"));
    }
}
