//! The id_token of the simulated Google (PROVIDERS.md §1.5), with the injected faults.

use crate::codes::Grant;
use crate::config::Provider;
use crate::id_token_fault::apply_to_claims;
use crate::state::SimState;
use crate::users::SimUser;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// Google's id_tokens live one hour.
const LIFETIME_SECS: i64 = 3600;

/// Signs the id_token for `grant`, whose access token is `access_token`.
pub fn issue(sim: &SimState, grant: &Grant, access_token: &str) -> String {
    let fault = sim.id_token_faults.get(Provider::Google);
    let now = unix_now();
    let mut claims = json!({
        "iss": sim.google_issuer,
        "azp": grant.client_id,
        "aud": grant.client_id,
        "sub": grant.user.id,
        "at_hash": at_hash(access_token),
        "iat": now,
        "exp": now + LIFETIME_SECS,
    });
    if let Some(object) = claims.as_object_mut() {
        if let Some(nonce) = &grant.nonce {
            object.insert("nonce".into(), json!(nonce));
        }
        object.extend(profile_claims(&grant.user, &grant.scopes));
    }
    apply_to_claims(&mut claims, fault, now);
    sim.keys.sign(&claims, fault)
}

/// The claims `email` and `profile` grant, shared with the userinfo answer. Absent values
/// are left out, as Google does.
pub fn profile_claims(user: &SimUser, scopes: &[String]) -> Map<String, Value> {
    let has = |scope: &str| scopes.iter().any(|s| s == scope);
    let mut claims = Map::new();
    if has("email")
        && let Some(email) = &user.email
    {
        claims.insert("email".into(), json!(email));
        claims.insert("email_verified".into(), json!(user.email_verified));
    }
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
    }
    claims
}

/// OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the access token.
fn at_hash(access_token: &str) -> String {
    let digest = Sha256::digest(access_token.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..16])
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ada() -> SimUser {
        SimUser::new("110248495921238986420", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
            .with_avatar_url("https://lh3.example/ada")
    }

    fn scopes(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn email_and_profile_claims_follow_the_granted_scopes() {
        let all = profile_claims(&ada(), &scopes(&["openid", "email", "profile"]));
        assert_eq!(all["email"], "ada@example.com");
        assert_eq!(all["email_verified"], true);
        assert_eq!(all["given_name"], "Ada");
        assert_eq!(all["family_name"], "Lovelace");
        assert_eq!(all["picture"], "https://lh3.example/ada");

        let email_only = profile_claims(&ada(), &scopes(&["openid", "email"]));
        assert!(email_only.contains_key("email") && !email_only.contains_key("name"));
        assert!(profile_claims(&ada(), &scopes(&["openid"])).is_empty());
    }

    #[test]
    fn at_hash_is_the_left_half_of_the_sha256() {
        // 16 bytes → 22 base64url characters.
        assert_eq!(at_hash("ya29.token").len(), 22);
        assert_ne!(at_hash("a"), at_hash("b"));
    }
}
