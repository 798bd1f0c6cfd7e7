//! The id_token of the simulated Apple (PROVIDERS.md §8.5), its email claims styled by the
//! knobs, broken on demand by the shared id_token faults; and the first-login `user` JSON.

use super::knobs::{AppleKnobs, ClaimStyle};
use super::{APPLE_ISSUER, unix_now};
use crate::config::Provider;
use crate::id_token_fault::apply_to_claims;
use crate::state::SimState;
use crate::users::SimUser;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Apple's identity tokens are short-lived: ten minutes [M].
const LIFETIME_SECS: i64 = 600;

/// What an id_token is about: the user, the client it is for, what was granted.
pub struct Subject<'a> {
    pub client_id: &'a str,
    pub user: &'a SimUser,
    pub scopes: &'a [String],
    pub nonce: Option<&'a str>,
}

/// Signs the id_token for `subject`. The `sub` is the seeded user's id, so seed an
/// Apple-shaped one (`001234.<32 hex>.1234`) where the shape matters.
pub fn issue(sim: &SimState, subject: &Subject<'_>) -> String {
    let fault = sim.id_token_faults.get(Provider::Apple);
    let now = unix_now();
    let mut claims = json!({
        "iss": APPLE_ISSUER,
        "aud": subject.client_id,
        "sub": subject.user.id,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "auth_time": now,
        "nonce_supported": true,
    });
    if let Some(object) = claims.as_object_mut() {
        if let Some(nonce) = subject.nonce {
            object.insert("nonce".into(), json!(nonce));
        }
        object.extend(email_claims(subject, sim.apple.knobs()));
    }
    apply_to_claims(&mut claims, fault, now);
    sim.keys.sign(&claims, fault)
}

/// `email`, `email_verified`, `is_private_email` when the `email` scope was granted and the
/// user has an address; booleans spelled the way the knobs say.
fn email_claims(subject: &Subject<'_>, knobs: AppleKnobs) -> Map<String, Value> {
    let mut claims = Map::new();
    let Some(email) = email_for(subject, knobs) else {
        return claims;
    };
    let flag = |value: bool| match knobs.claim_style {
        ClaimStyle::Strings => json!(value.to_string()),
        ClaimStyle::Booleans => json!(value),
    };
    // Apple vouches for the relay address it made itself.
    let verified = knobs.private_relay_email || subject.user.email_verified;
    claims.insert("email".into(), json!(email));
    claims.insert("email_verified".into(), flag(verified));
    claims.insert("is_private_email".into(), flag(knobs.private_relay_email));
    claims
}

/// The address Apple shares with this client: the user's own, or a relay address that is
/// stable per user and client. `None` without the `email` scope or an address.
pub fn email_for(subject: &Subject<'_>, knobs: AppleKnobs) -> Option<String> {
    if !subject.scopes.iter().any(|s| s == "email") {
        return None;
    }
    let own = subject.user.email.as_deref()?;
    if !knobs.private_relay_email {
        return Some(own.to_owned());
    }
    let digest = Sha256::digest(format!("{}:{}", subject.client_id, subject.user.id));
    let local: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    Some(format!("{local}@privaterelay.appleid.com"))
}

/// The `user` form field of a first authorization:
/// `{"name":{"firstName","lastName"},"email"}`, each part only when granted and known.
pub fn first_login_user(subject: &Subject<'_>, knobs: AppleKnobs) -> Option<String> {
    let mut user = Map::new();
    let named = subject.scopes.iter().any(|s| s == "name");
    if let Some(full) = subject.user.name.as_deref().filter(|_| named) {
        let mut parts = full.splitn(2, ' ');
        let mut name = Map::new();
        if let Some(first) = parts.next().filter(|p| !p.is_empty()) {
            name.insert("firstName".into(), json!(first));
        }
        if let Some(last) = parts.next().filter(|p| !p.is_empty()) {
            name.insert("lastName".into(), json!(last));
        }
        user.insert("name".into(), Value::Object(name));
    }
    if let Some(email) = email_for(subject, knobs) {
        user.insert("email".into(), json!(email));
    }
    (!user.is_empty()).then(|| Value::Object(user).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ada() -> SimUser {
        SimUser::new("001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
    }

    fn scopes(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn subject<'a>(user: &'a SimUser, scopes: &'a [String]) -> Subject<'a> {
        Subject {
            client_id: "com.example.web",
            user,
            scopes,
            nonce: None,
        }
    }

    #[test]
    fn email_claims_are_strings_by_default_and_booleans_on_request() {
        let (user, granted) = (ada(), scopes(&["name", "email"]));
        let strings = email_claims(&subject(&user, &granted), AppleKnobs::default());
        assert_eq!(strings["email"], "ada@example.com");
        assert_eq!(strings["email_verified"], "true");
        assert_eq!(strings["is_private_email"], "false");
        let knobs = AppleKnobs {
            claim_style: ClaimStyle::Booleans,
            ..AppleKnobs::default()
        };
        let booleans = email_claims(&subject(&user, &granted), knobs);
        assert_eq!(booleans["email_verified"], true);
        assert_eq!(booleans["is_private_email"], false);
    }

    #[test]
    fn a_private_relay_address_is_stable_per_user_and_client() {
        let (user, granted) = (ada(), scopes(&["email"]));
        let knobs = AppleKnobs {
            private_relay_email: true,
            ..AppleKnobs::default()
        };
        let relay = email_for(&subject(&user, &granted), knobs).unwrap();
        assert!(relay.ends_with("@privaterelay.appleid.com"), "{relay}");
        assert_eq!(email_for(&subject(&user, &granted), knobs).unwrap(), relay);
        let other_client = Subject {
            client_id: "com.other.web",
            ..subject(&user, &granted)
        };
        assert_ne!(email_for(&other_client, knobs).unwrap(), relay);
        let claims = email_claims(&subject(&user, &granted), knobs);
        assert_eq!(claims["is_private_email"], "true");
    }

    #[test]
    fn without_the_email_scope_there_is_no_email_anywhere() {
        let (user, granted) = (ada(), scopes(&["name"]));
        assert!(email_claims(&subject(&user, &granted), AppleKnobs::default()).is_empty());
        let posted = first_login_user(&subject(&user, &granted), AppleKnobs::default()).unwrap();
        assert_eq!(
            posted,
            r#"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#
        );
    }

    #[test]
    fn the_first_login_user_json_has_the_name_parts_and_email() {
        let (user, granted) = (ada(), scopes(&["name", "email"]));
        let posted = first_login_user(&subject(&user, &granted), AppleKnobs::default()).unwrap();
        let value: Value = serde_json::from_str(&posted).unwrap();
        assert_eq!(
            value,
            json!({"name": {"firstName": "Ada", "lastName": "Lovelace"}, "email": "ada@example.com"})
        );
        let nameless = SimUser::new("1", "x");
        assert_eq!(
            first_login_user(&subject(&nameless, &granted), AppleKnobs::default()),
            None
        );
    }
}
