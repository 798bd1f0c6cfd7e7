//! The id_token of the simulated Apple (docs/providers.md#apple), its email claims styled by the
//! knobs; and the first-login `user` JSON.

use super::APPLE_ISSUER;
use super::knobs::{AppleKnobs, ClaimStyle};
use crate::claims::Subject;
use crate::state::SimState;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// The id_token's claims. The `sub` is the seeded user's id, so seed an Apple-shaped one
/// (`001234.<32 hex>.1234`) where the shape matters.
pub(crate) fn id_token_claims(sim: &SimState, subject: &Subject<'_>, now: i64) -> Value {
    let mut claims = json!({
        "iss": APPLE_ISSUER,
        "aud": subject.client_id,
        "sub": subject.user.id,
        "iat": now,
        // Apple's identity tokens are short-lived: ten minutes [M].
        "exp": now + 600,
        "auth_time": now,
        "nonce_supported": true,
    });
    if let Some(object) = claims.as_object_mut() {
        if let Some(nonce) = subject.nonce {
            object.insert("nonce".into(), json!(nonce));
        }
        object.extend(email_claims(subject, sim.apple.knobs.get()));
    }
    claims
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
