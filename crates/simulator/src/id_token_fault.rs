//! Broken id_tokens on demand: each knob breaks exactly one check a relying party must make.

use crate::config::Provider;
use crate::lock::locked;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;

/// What is wrong with the next id_tokens of a provider; the `fault` of
/// `POST /_control/id_token_fault`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdTokenFault {
    /// Signed by the other fixture key, under the active key's `kid`.
    WrongSignature,
    /// A `kid` the JWKS does not list.
    UnknownKid,
    /// `alg: none`, no signature.
    AlgNone,
    /// HS256 with the active RSA public key (PEM) as the HMAC secret: algorithm confusion.
    HmacWithPublicKey,
    /// `aud` names another client.
    WrongAudience,
    /// `iss` names another issuer.
    WrongIssuer,
    /// Issued two hours ago, expired one hour ago.
    Expired,
    /// `iat` an hour in the future.
    IssuedInFuture,
    /// No `nonce` although the authorization request sent one.
    MissingNonce,
    /// A `nonce` other than the one sent.
    WrongNonce,
    /// Not a fault for a tolerant client: `email_verified` as the string `"true"`/`"false"`,
    /// as very old Google tokens (and Apple, LinkedIn) send it.
    StringBooleans,
    /// Microsoft: `iss` names another tenant than the token's own `tid`.
    TenantMismatch,
    /// No `iat`.
    MissingIssuedAt,
    /// `azp` names another client (the `aud` is ours).
    ForeignAuthorizedParty,
    /// No `sub`.
    MissingSubject,
}

/// The body of `POST /_control/id_token_fault`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdTokenFaultRequest {
    pub provider: Provider,
    pub fault: IdTokenFault,
}

/// The active id_token faults, one per provider, until cleared with the other faults.
#[derive(Debug, Default)]
pub struct IdTokenFaultStore {
    faults: Mutex<HashMap<Provider, IdTokenFault>>,
}

impl IdTokenFaultStore {
    pub fn set(&self, provider: Provider, fault: IdTokenFault) {
        locked(&self.faults).insert(provider, fault);
    }

    pub fn get(&self, provider: Provider) -> Option<IdTokenFault> {
        locked(&self.faults).get(&provider).copied()
    }

    pub fn clear(&self) {
        locked(&self.faults).clear();
    }
}

/// The tenant a [`IdTokenFault::TenantMismatch`] token claims in its `iss`.
const FOREIGN_TENANT: &str = "00000000-0000-0000-0000-00000000f0e1";

/// Applies the claim-level faults to `claims` (a JSON object), given the time `now` in
/// seconds since the epoch. Header-level faults are the signer's job.
pub fn apply_to_claims(claims: &mut Value, fault: Option<IdTokenFault>, now: i64) {
    let Some(object) = claims.as_object_mut() else {
        return;
    };
    match fault {
        Some(IdTokenFault::WrongAudience) => {
            object.insert("aud".into(), json!("another-client.example"));
        }
        Some(IdTokenFault::WrongIssuer) => {
            object.insert("iss".into(), json!("https://issuer.evil.example"));
        }
        Some(IdTokenFault::Expired) => {
            object.insert("iat".into(), json!(now - 7200));
            object.insert("exp".into(), json!(now - 3600));
        }
        Some(IdTokenFault::IssuedInFuture) => {
            object.insert("iat".into(), json!(now + 3600));
            object.insert("exp".into(), json!(now + 7200));
        }
        Some(IdTokenFault::MissingNonce) => {
            object.remove("nonce");
        }
        Some(IdTokenFault::WrongNonce) => {
            object.insert("nonce".into(), json!("not-the-nonce-that-was-sent"));
        }
        // The `iss` of another tenant than the token's own `tid` (Microsoft's shape).
        Some(IdTokenFault::TenantMismatch) => {
            let tid = object
                .get("tid")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let iss = object
                .get("iss")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !tid.is_empty() {
                let foreign = iss.replace(tid, FOREIGN_TENANT);
                object.insert("iss".into(), json!(foreign));
            }
        }
        Some(IdTokenFault::MissingIssuedAt) => {
            object.remove("iat");
        }
        Some(IdTokenFault::ForeignAuthorizedParty) => {
            object.insert("azp".into(), json!("another-client.example"));
        }
        Some(IdTokenFault::MissingSubject) => {
            object.remove("sub");
        }
        Some(IdTokenFault::StringBooleans) => {
            if let Some(flag) = object.get("email_verified").and_then(Value::as_bool) {
                object.insert("email_verified".into(), json!(flag.to_string()));
            }
        }
        _ => {}
    }
}
