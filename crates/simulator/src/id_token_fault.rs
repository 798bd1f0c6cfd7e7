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
        Some(IdTokenFault::StringBooleans) => {
            if let Some(flag) = object.get("email_verified").and_then(Value::as_bool) {
                object.insert("email_verified".into(), json!(flag.to_string()));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims() -> Value {
        json!({"aud": "client", "iat": 1000, "exp": 4600, "nonce": "n", "email_verified": true})
    }

    #[test]
    fn each_claim_fault_changes_only_its_claim() {
        let mut expired = claims();
        apply_to_claims(&mut expired, Some(IdTokenFault::Expired), 10_000);
        assert_eq!(expired["exp"], json!(6400));
        assert_eq!(expired["aud"], "client");

        let mut no_nonce = claims();
        apply_to_claims(&mut no_nonce, Some(IdTokenFault::MissingNonce), 0);
        assert!(no_nonce.get("nonce").is_none());

        let mut strings = claims();
        apply_to_claims(&mut strings, Some(IdTokenFault::StringBooleans), 0);
        assert_eq!(strings["email_verified"], "true");

        let mut untouched = claims();
        apply_to_claims(&mut untouched, Some(IdTokenFault::AlgNone), 0);
        assert_eq!(untouched, claims());
    }

    #[test]
    fn the_control_json_names_faults_in_snake_case() {
        let request: IdTokenFaultRequest =
            serde_json::from_str(r#"{"provider":"google","fault":"wrong_audience"}"#).unwrap();
        assert_eq!(request.fault, IdTokenFault::WrongAudience);
        assert_eq!(request.provider, Provider::Google);
    }
}
