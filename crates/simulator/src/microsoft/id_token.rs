//! The id_token of the simulated Microsoft (PROVIDERS.md §4.5, §11.5), with the injected
//! faults: `iss` names the user's own tenant, `sub` is pairwise (per user and app).

use super::{issuer_of, unix_now};
use crate::codes::Grant;
use crate::config::Provider;
use crate::id_token_fault::{IdTokenFault, apply_to_claims};
use crate::random;
use crate::state::SimState;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Microsoft's id_tokens live one hour.
const LIFETIME_SECS: i64 = 3600;

/// The tenant a [`IdTokenFault::TenantMismatch`] token claims in its `iss`.
const FOREIGN_TENANT: &str = "00000000-0000-0000-0000-00000000f0e1";

/// Signs the id_token for `grant`.
pub fn issue(sim: &SimState, grant: &Grant) -> String {
    let fault = sim.id_token_faults.get(Provider::Microsoft);
    let now = unix_now();
    let mut claims = claims(&sim.base_url, grant, now);
    apply_to_claims(&mut claims, fault, now);
    if fault == Some(IdTokenFault::TenantMismatch) {
        claims["iss"] = json!(issuer_of(&sim.base_url, FOREIGN_TENANT));
    }
    sim.keys.sign(&claims, fault)
}

/// The claims Microsoft puts in a v2.0 id_token for this grant's user and scopes.
fn claims(base_url: &str, grant: &Grant, now: i64) -> Value {
    let user = &grant.user;
    let account = user.microsoft_account();
    let has = |scope: &str| grant.scopes.iter().any(|s| s == scope);
    let mut claims = json!({
        "ver": "2.0",
        "iss": issuer_of(base_url, &account.tenant_id),
        "sub": pairwise_subject(&user.id, &grant.client_id),
        "aud": grant.client_id,
        "exp": now + LIFETIME_SECS,
        "iat": now,
        "nbf": now,
        "tid": account.tenant_id,
        "aio": random::base62(48),
        "rh": format!("0.{}.", random::base62(40)),
        "uti": random::base62(22),
        "sid": random::hex(32),
    });
    if let Some(nonce) = &grant.nonce {
        claims["nonce"] = json!(nonce);
    }
    if has("profile") {
        claims["oid"] = json!(account.object_id_of(user));
        claims["preferred_username"] = json!(account.username_of(user));
        if let Some(name) = &user.name {
            claims["name"] = json!(name);
        }
    }
    if has("email")
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

/// `sub`: one opaque value per user and app, the way Microsoft's pairwise subjects look
/// (43 base64url characters).
fn pairwise_subject(user_id: &str, client_id: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(format!("{user_id}|{client_id}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::microsoft::{MICROSOFT_CONSUMER_TENANT, MicrosoftAccount};
    use crate::users::SimUser;

    const WORK: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

    fn grant(user: SimUser, scopes: &[&str]) -> Grant {
        Grant {
            provider: Provider::Microsoft,
            client_id: "app".into(),
            redirect_uri: "http://127.0.0.1/cb".into(),
            code_challenge: None,
            code_challenge_method: None,
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            nonce: Some("n-1".into()),
            user,
        }
    }

    #[test]
    fn a_personal_account_token_names_the_consumer_tenant_and_the_email() {
        let user = SimUser::new("1", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@outlook.com", true);
        let claims = claims(
            "http://sim",
            &grant(user, &["openid", "email", "profile"]),
            100,
        );
        assert_eq!(claims["tid"], MICROSOFT_CONSUMER_TENANT);
        assert_eq!(
            claims["iss"],
            format!("http://sim/microsoft/{MICROSOFT_CONSUMER_TENANT}/v2.0")
        );
        assert_eq!(claims["email"], "ada@outlook.com");
        assert_eq!(claims["preferred_username"], "ada@outlook.com");
        assert_eq!(claims["name"], "Ada Lovelace");
        assert_eq!(claims["nonce"], "n-1");
        assert_eq!(claims["ver"], "2.0");
        assert_eq!(claims["sub"].as_str().unwrap().len(), 43);
        assert!(claims.get("xms_edov").is_none());
    }

    #[test]
    fn a_work_account_without_email_has_its_upn_and_optional_xms_edov() {
        let user = SimUser::new("2", "bob")
            .with_microsoft(MicrosoftAccount::work(WORK, "bob@contoso.com").with_xms_edov("1"));
        let claims = claims(
            "http://sim",
            &grant(user, &["openid", "email", "profile"]),
            100,
        );
        assert_eq!(claims["tid"], WORK);
        assert_eq!(claims["iss"], format!("http://sim/microsoft/{WORK}/v2.0"));
        assert!(claims.get("email").is_none());
        assert_eq!(claims["preferred_username"], "bob@contoso.com");
        assert_eq!(claims["xms_edov"], "1");
    }

    #[test]
    fn the_subject_is_pairwise_per_app() {
        assert_ne!(
            pairwise_subject("1", "app-a"),
            pairwise_subject("1", "app-b")
        );
        assert_eq!(
            pairwise_subject("1", "app-a"),
            pairwise_subject("1", "app-a")
        );
    }

    #[test]
    fn profile_and_email_claims_follow_the_scopes() {
        let user = SimUser::new("1", "ada")
            .with_name("Ada")
            .with_email("ada@outlook.com", true);
        let claims = claims("http://sim", &grant(user, &["openid"]), 100);
        for absent in ["email", "name", "preferred_username", "oid"] {
            assert!(claims.get(absent).is_none(), "{absent}");
        }
    }
}
