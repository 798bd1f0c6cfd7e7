//! The id_tokens of the simulated OIDC providers: what each says about whom, broken on
//! demand by the injected [`crate::IdTokenFault`]s and signed with the simulator's keys.

use crate::config::Provider;
use crate::dialect::Signing;
use crate::flow::{has_scope, unix_now};
use crate::hooks::Cx;
use crate::id_token_fault::apply_to_claims;
use crate::signing::{TEST_EC_KEY, sign_with_secret};
use crate::state::SimState;
use crate::template::Fill;
use crate::users::SimUser;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// What an id_token is about: the user, the client it is for, what was granted.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub client_id: &'a str,
    pub user: &'a SimUser,
    pub scopes: &'a [String],
    pub nonce: Option<&'a str>,
}

impl Subject<'_> {
    pub fn has(&self, scope: &str) -> bool {
        has_scope(self.scopes, scope)
    }
}

/// Signs `provider`'s id_token about `subject`; with the access token issued beside it,
/// the token carries its `at_hash`.
pub fn issue(
    sim: &SimState,
    provider: Provider,
    subject: &Subject<'_>,
    access_token: Option<&str>,
) -> String {
    let now = unix_now();
    let cx = Cx::bare(sim, provider);
    let mut claims = cx.hooks().id_token_claims(&cx, subject, now);
    if let Some(token) = access_token {
        claims["at_hash"] = json!(at_hash(token));
    }
    let fault = sim.id_token_faults.get(provider);
    apply_to_claims(&mut claims, fault, now);
    match cx.dialect.id_token.signing {
        Signing::Rs256 => sim.keys.sign(&claims, fault),
        Signing::Es256 => TEST_EC_KEY.sign(&claims, fault),
        Signing::ClientSecret => {
            let secret = sim
                .client(provider, subject.client_id)
                .map_or("", |client| client.client_secret.as_str());
            sign_with_secret(secret, &claims)
        }
    }
}

/// The claims an OpenID provider signs (OIDC Core §2 and §5.1, as Google sends them): who,
/// for whom, when, the nonce, and what `email` and `profile` grant (or what the dialect's
/// template says it carries); valid one hour.
pub fn standard_claims(cx: &Cx<'_>, issuer: &str, subject: &Subject<'_>, now: i64) -> Value {
    let mut claims = match &cx.dialect.id_token.claims {
        Some(template) => template.members(&Fill::user(subject.user)),
        None => profile_claims(subject.user, subject.scopes),
    };
    claims.insert("azp".into(), json!(subject.client_id));
    claims.insert("aud".into(), json!(subject.client_id));
    claims.insert("iss".into(), json!(issuer));
    claims.insert("iat".into(), json!(now));
    claims.insert("exp".into(), json!(now + 3600));
    if let Some(nonce) = subject.nonce {
        claims.insert("nonce".into(), json!(nonce));
    }
    about(&subject.user.id, claims)
}

/// `claims` about the subject `sub`, as one JSON object.
pub fn about(sub: &str, mut claims: Map<String, Value>) -> Value {
    claims.insert("sub".into(), json!(sub));
    Value::Object(claims)
}

/// The claims `email` and `profile` grant, in the id_token and from userinfo. Absent
/// values are left out.
pub fn profile_claims(user: &SimUser, scopes: &[String]) -> Map<String, Value> {
    let mut claims = Map::new();
    if has_scope(scopes, "email")
        && let Some(email) = &user.email
    {
        claims.insert("email".into(), json!(email));
        claims.insert("email_verified".into(), json!(user.email_verified));
    }
    if has_scope(scopes, "profile") {
        claims.extend(name_claims(user));
    }
    claims
}

/// `name`, `given_name`, `family_name` and `picture`, each only when known.
pub fn name_claims(user: &SimUser) -> Map<String, Value> {
    let mut claims = Map::new();
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
    claims
}

/// OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the access token.
fn at_hash(access_token: &str) -> String {
    let digest = Sha256::digest(access_token.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..16])
}
