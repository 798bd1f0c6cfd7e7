//! What the simulated OpenID providers say about a person: the subject of an id_token, the
//! standard claims, and those `email` and `profile` grant, in id_tokens and userinfo alike.

use crate::dialect::Dialect;
use crate::flow::has_scope;
use crate::template::Fill;
use crate::users::SimUser;
use serde_json::{Map, Value, json};

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

/// The claims an OpenID provider signs (OIDC Core §2 and §5.1, as Google sends them): who,
/// for whom, when, the nonce, and what `email` and `profile` grant (or what the dialect's
/// template says it carries); valid one hour.
pub fn standard_claims(dialect: &Dialect, issuer: &str, subject: &Subject<'_>, now: i64) -> Value {
    let mut claims = match &dialect.id_token.claims {
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
