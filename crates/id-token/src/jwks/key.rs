//! The keys of a JWKS document, parsed tolerantly: a key we cannot use (an encryption key,
//! an unknown type, a malformed entry) is skipped, never fatal for the whole set.

use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;
use serde_json::Value;
use social_login_provider_core::ObjectOnly;

/// One usable signature key.
#[derive(derive_more::Debug, Clone)]
pub struct PublicKey {
    pub kid: Option<String>,
    /// The key's own `alg`, when the set names one (Entra's do not).
    pub alg: Option<String>,
    /// The one algorithm an EC key's curve (`crv`) verifies; `None` for an RSA key.
    pub ec_algorithm: Option<Algorithm>,
    /// The issuer the key signs for, when the set names one (Entra's:
    /// `https://login.microsoftonline.com/{tenantid}/v2.0`).
    pub issuer: Option<String>,
    #[debug(skip)]
    pub key: DecodingKey,
}

impl PublicKey {
    /// Whether a token signed with `algorithm` may be checked with this key: the families
    /// must match, and so must the key's own `alg` when it names one, and an EC key's curve.
    pub fn accepts(&self, algorithm: Algorithm) -> bool {
        let named_ok = self
            .alg
            .as_deref()
            .is_none_or(|alg| alg.parse::<Algorithm>().ok() == Some(algorithm));
        let curve_ok = self.ec_algorithm.is_none_or(|ec| ec == algorithm);
        named_ok && curve_ok && self.key.family() == algorithm.family()
    }
}

/// `{"keys": [...]}`; each entry stays raw JSON until it is parsed on its own.
#[derive(Deserialize)]
pub struct JwkSetDocument {
    #[serde(default)]
    keys: Vec<Value>,
    /// Decoded from a JSON object only, never from an array in field order.
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

#[derive(Deserialize)]
struct RawJwk {
    kty: String,
    kid: Option<String>,
    alg: Option<String>,
    crv: Option<String>,
    #[serde(default, rename = "use")]
    usage: Option<String>,
    n: Option<String>,
    e: Option<String>,
    x: Option<String>,
    y: Option<String>,
    /// Any JSON: a member of another type than a string counts as absent, never costs the
    /// key.
    issuer: Option<Value>,
    /// Decoded from a JSON object only, never from an array in field order.
    #[serde(flatten)]
    _object: ObjectOnly,
}

/// The most signature keys kept from one document; real sets have two to a dozen.
pub const MAX_KEYS: usize = 100;

impl JwkSetDocument {
    /// The signature keys (RSA and EC) of the set, the first [`MAX_KEYS`] of them.
    pub fn signature_keys(self) -> Vec<PublicKey> {
        self.keys
            .into_iter()
            .filter_map(parse_key)
            .take(MAX_KEYS)
            .collect()
    }
}

fn parse_key(raw: Value) -> Option<PublicKey> {
    let jwk: RawJwk = serde_json::from_value(raw).ok()?;
    // A key published for encryption must never verify a signature.
    if jwk.usage.as_deref().is_some_and(|usage| usage != "sig") {
        return None;
    }
    let (key, ec_algorithm) = match jwk.kty.as_str() {
        "RSA" => {
            let key = DecodingKey::from_rsa_components(jwk.n.as_deref()?, jwk.e.as_deref()?);
            (key.ok()?, None)
        }
        // `crv` is required of an EC key (RFC 7518 §6.2.1.1); a curve we cannot verify on is
        // no key of ours.
        "EC" => {
            // The curve an ECDSA algorithm signs on (RFC 7518 §3.4).
            let algorithm = match jwk.crv.as_deref()? {
                "P-256" => Algorithm::ES256,
                "P-384" => Algorithm::ES384,
                _ => return None,
            };
            let key = DecodingKey::from_ec_components(jwk.x.as_deref()?, jwk.y.as_deref()?);
            (key.ok()?, Some(algorithm))
        }
        _ => return None,
    };
    Some(PublicKey {
        kid: jwk.kid,
        alg: jwk.alg,
        ec_algorithm,
        issuer: (jwk.issuer.as_ref())
            .and_then(Value::as_str)
            .filter(|issuer| !issuer.trim().is_empty())
            .map(str::to_owned),
        key,
    })
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(document: Value) -> Vec<PublicKey> {
        serde_json::from_value::<JwkSetDocument>(document)
            .unwrap()
            .signature_keys()
    }

    const N: &str = social_login_simulator::TEST_KEY_A.n;

    #[test]
    fn the_issuer_a_key_names_is_kept_and_an_empty_or_odd_one_is_none() {
        let template = "https://login.microsoftonline.com/{tenantid}/v2.0";
        let keys = parse(json!({"keys": [
            {"kty": "RSA", "kid": "entra", "n": N, "e": "AQAB", "issuer": template},
            {"kty": "RSA", "kid": "blank", "n": N, "e": "AQAB", "issuer": " "},
            {"kty": "RSA", "kid": "plain", "n": N, "e": "AQAB"},
            {"kty": "RSA", "kid": "odd", "n": N, "e": "AQAB", "issuer": 7},
        ]}));
        let issuers: Vec<Option<&str>> = keys.iter().map(|key| key.issuer.as_deref()).collect();
        assert_eq!(issuers, [Some(template), None, None, None]);
    }

    #[test]
    fn rsa_signature_keys_are_kept_and_others_skipped() {
        let keys = parse(json!({"keys": [
            {"kty": "RSA", "kid": "a", "alg": "RS256", "use": "sig", "n": N, "e": "AQAB"},
            {"kty": "RSA", "kid": "enc", "use": "enc", "n": N, "e": "AQAB"},
            {"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"},
            {"kty": "RSA", "kid": "broken"},
            "not even an object",
            ["RSA", "positional", "RS256", "sig", N, "AQAB"],
            {"kty": "RSA", "kid": "no-alg", "n": N, "e": "AQAB"},
        ]}));
        let kids: Vec<_> = keys.iter().map(|k| k.kid.as_deref().unwrap()).collect();
        assert_eq!(kids, ["a", "no-alg"]);
    }

    #[test]
    fn a_key_accepts_only_its_own_algorithm_family_and_named_alg() {
        let keys = parse(json!({"keys": [
            {"kty": "RSA", "kid": "a", "alg": "RS256", "n": N, "e": "AQAB"},
            {"kty": "RSA", "kid": "b", "n": N, "e": "AQAB"},
        ]}));
        assert!(keys[0].accepts(Algorithm::RS256));
        assert!(!keys[0].accepts(Algorithm::RS512));
        assert!(!keys[0].accepts(Algorithm::HS256));
        assert!(keys[1].accepts(Algorithm::RS512));
        assert!(!keys[1].accepts(Algorithm::ES256));
    }

    #[test]
    fn an_ec_key_accepts_only_the_algorithm_of_its_curve_and_one_without_a_curve_is_skipped() {
        let ec = social_login_simulator::signing::TEST_EC_KEY;
        let keys = parse(json!({"keys": [
            {"kty": "EC", "kid": "p256", "crv": "P-256", "x": ec.x, "y": ec.y},
            {"kty": "EC", "kid": "p384", "crv": "P-384", "x": ec.x, "y": ec.y},
            {"kty": "EC", "kid": "none", "x": ec.x, "y": ec.y},
            {"kty": "EC", "kid": "p521", "crv": "P-521", "x": ec.x, "y": ec.y},
        ]}));
        let kids: Vec<_> = keys.iter().map(|k| k.kid.as_deref().unwrap()).collect();
        assert_eq!(kids, ["p256", "p384"]);
        assert!(keys[0].accepts(Algorithm::ES256));
        assert!(!keys[0].accepts(Algorithm::ES384));
        assert!(keys[1].accepts(Algorithm::ES384));
        assert!(!keys[1].accepts(Algorithm::ES256));
    }
}
