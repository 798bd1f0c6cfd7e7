//! The Ed25519 key pair that signs access tokens, derived from one secret key, and the
//! public JWK (RFC 7517, RFC 8037) that lets other services verify its tokens.
//!
//! The seed is HKDF-derived from the secret (its own label), so every instance sharing the
//! secret signs with the same key and needs no key storage, and a previous secret key yields
//! its previous public key again.

use crate::keys::{Purpose, derive_key};
use aws_lc_rs::signature::{Ed25519KeyPair, KeyPair as _};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, Header};
use serde::Serialize;
use sha2::{Digest, Sha256};
use social_login_domain::SecretText;

/// A public Ed25519 signing key as a JWK: `kty`, `crv`, `alg`, `use`, `kid` and `x` only,
/// never a private part (`d`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PublicJwk {
    kty: &'static str,
    crv: &'static str,
    alg: &'static str,
    #[serde(rename = "use")]
    usage: &'static str,
    kid: String,
    x: String,
}

impl PublicJwk {
    fn ed25519(public_key: &[u8]) -> Self {
        let x = URL_SAFE_NO_PAD.encode(public_key);
        Self {
            kty: "OKP",
            crv: "Ed25519",
            alg: "EdDSA",
            usage: "sig",
            kid: thumbprint(&x),
            x,
        }
    }

    /// Key type: `OKP` (RFC 8037).
    pub fn kty(&self) -> &str {
        self.kty
    }

    pub fn crv(&self) -> &str {
        self.crv
    }

    /// The JWS algorithm: `EdDSA`.
    pub fn alg(&self) -> &str {
        self.alg
    }

    /// The JWK `use`: `sig`.
    pub fn usage(&self) -> &str {
        self.usage
    }

    /// The key id: the RFC 7638 SHA-256 thumbprint of the public key, base64url.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The 32-byte public key, base64url (RFC 8037 `x`).
    pub fn x(&self) -> &str {
        &self.x
    }
}

/// RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace. `x`
/// is base64url, so it needs no JSON escaping.
fn thumbprint(x: &str) -> String {
    let canonical = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

/// One derived key pair, ready to sign (current key) or verify (any configured key).
pub(crate) struct SigningKey {
    pub(crate) jwk: PublicJwk,
    /// Parsed once: jsonwebtoken's `encode` parses a PKCS#8 key, recomputing the public
    /// point, on every call, which was half the cost of issuing a token.
    pair: Ed25519KeyPair,
    /// The JWS header of every token this key signs, base64url, built once.
    header: String,
    pub(crate) decoding: DecodingKey,
}

impl SigningKey {
    pub(crate) fn derive(secret: &SecretText) -> Self {
        let seed = derive_key(secret, Purpose::AccessTokenSigning);
        // Any 32 bytes are a valid Ed25519 seed.
        let pair = Ed25519KeyPair::from_seed_unchecked(&seed)
            .expect("32 bytes are always an Ed25519 seed");
        let jwk = PublicJwk::ed25519(pair.public_key().as_ref());
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(jwk.kid().to_owned());
        let header = serde_json::to_vec(&header).expect("a JWS header always serialises");
        Self {
            decoding: DecodingKey::from_ed_der(pair.public_key().as_ref()),
            header: URL_SAFE_NO_PAD.encode(header),
            jwk,
            pair,
        }
    }

    /// The JWS compact serialisation (RFC 7515 §7.1) of `claims` under this key: EdDSA, with
    /// this key's `kid`.
    pub(crate) fn sign(&self, claims: &impl Serialize) -> Result<String, serde_json::Error> {
        let claims = serde_json::to_vec(claims)?;
        let mut token = String::with_capacity(self.header.len() + claims.len() * 4 / 3 + 90);
        token.push_str(&self.header);
        token.push('.');
        URL_SAFE_NO_PAD.encode_string(claims, &mut token);
        let signature = self.pair.sign(token.as_bytes());
        token.push('.');
        URL_SAFE_NO_PAD.encode_string(signature.as_ref(), &mut token);
        Ok(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(label: &str) -> SecretText {
        SecretText::new(format!("{label}-secret-key-of-at-least-32-bytes"))
    }

    #[test]
    fn the_key_is_deterministic_per_secret() {
        let first = SigningKey::derive(&secret("a"));
        assert_eq!(first.jwk, SigningKey::derive(&secret("a")).jwk);
        assert_ne!(first.jwk, SigningKey::derive(&secret("b")).jwk);
        assert_eq!(URL_SAFE_NO_PAD.decode(first.jwk.x()).unwrap().len(), 32);
    }

    #[test]
    fn the_kid_is_the_rfc_7638_thumbprint() {
        // RFC 8037 appendix A.3: the thumbprint of its example Ed25519 key.
        let x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
        assert_eq!(
            PublicJwk::ed25519(&URL_SAFE_NO_PAD.decode(x).unwrap()).kid(),
            "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
        );
    }

    #[test]
    fn the_jwk_serialises_with_public_members_only() {
        let jwk = SigningKey::derive(&secret("a")).jwk;
        let value = serde_json::to_value(&jwk).unwrap();
        let mut members: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        members.sort();
        assert_eq!(members, ["alg", "crv", "kid", "kty", "use", "x"]);
        assert_eq!(value["use"], "sig");
        assert_eq!(value["alg"], "EdDSA");
        let text = value.to_string();
        crate::keys::assert_reveals_nothing_of(&text, &secret("a"));
    }
}
