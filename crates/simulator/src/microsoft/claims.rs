//! The id_token the simulated Microsoft signs: its `iss` names the user's own tenant, its
//! `sub` is pairwise, and `xms_edov` is there when the app registration asks for it.

use super::account::MicrosoftAccount;
use crate::claims::Subject;
use crate::random;
use crate::users::SimUser;
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
        claims["oid"] = json!(object_id_of(&account, user));
        claims["preferred_username"] = json!(username_of(&account, user));
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

/// The `oid`: the seeded one, or a stable value derived from the user and tenant
/// (personal accounts' look like `00000000-0000-0000-xxxx-xxxxxxxxxxxx`).
fn object_id_of(account: &MicrosoftAccount, user: &SimUser) -> String {
    if let Some(oid) = &account.object_id {
        return oid.clone();
    }
    let digest = Sha256::digest(format!("{}:{}", account.tenant_id, user.id).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    if account.is_personal() {
        format!("00000000-0000-0000-{}-{}", &hex[..4], &hex[4..16])
    } else {
        let g = |from: usize, to: usize| &hex[from..to];
        format!(
            "{}-{}-{}-{}-{}",
            g(0, 8),
            g(8, 12),
            g(12, 16),
            g(16, 20),
            g(20, 32)
        )
    }
}

/// `preferred_username`: the seeded one, else the email, else the login.
fn username_of(account: &MicrosoftAccount, user: &SimUser) -> String {
    account
        .preferred_username
        .clone()
        .or_else(|| user.email.clone())
        .unwrap_or_else(|| user.login.clone())
}
