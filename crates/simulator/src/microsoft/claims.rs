//! The id_token the simulated Microsoft signs: its `iss` names the user's own tenant, its
//! `sub` is pairwise, and `xms_edov` is there when the app registration asks for it.

use crate::id_token::Subject;
use crate::random;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The claims Microsoft puts in a v2.0 id_token for this user and scopes.
pub(crate) fn id_token_claims(
    subject: &Subject<'_>,
    now: i64,
    issuer_of: impl Fn(&str) -> String,
) -> Value {
    let user = subject.user;
    let account = user.microsoft_account();
    // `sub`: one opaque value per user and app, 43 base64url characters like Microsoft's.
    let pairwise = Sha256::digest(format!("{}|{}", user.id, subject.client_id).as_bytes());
    let mut claims = json!({
        "ver": "2.0",
        "iss": issuer_of(&account.tenant_id),
        "sub": URL_SAFE_NO_PAD.encode(pairwise),
        "aud": subject.client_id,
        // Microsoft's id_tokens live one hour.
        "exp": now + 3600,
        "iat": now,
        "nbf": now,
        "tid": account.tenant_id,
        "aio": random::base62(48),
        "rh": format!("0.{}.", random::base62(40)),
        "uti": random::base62(22),
        "sid": random::hex(32),
    });
    if let Some(nonce) = subject.nonce {
        claims["nonce"] = json!(nonce);
    }
    if subject.has("profile") {
        claims["oid"] = json!(account.object_id_of(user));
        claims["preferred_username"] = json!(account.username_of(user));
        if let Some(name) = &user.name {
            claims["name"] = json!(name);
        }
    }
    if subject.has("email")
        && let Some(email) = &user.email
    {
        claims["email"] = json!(email);
    }
    // An optional claim the app registration asks for; sent whatever the scopes.
    if let Some(flag) = &account.xms_edov {
        claims["xms_edov"] = flag.clone();
    }
    claims
}
