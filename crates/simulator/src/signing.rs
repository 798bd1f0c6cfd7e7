//! The RSA keys the simulated OIDC providers sign id_tokens with, and the JWKS they publish.
//!
//! TEST FIXTURES ONLY: the two 2048-bit private keys in `signing/` are published in this
//! repository and protect nothing. They are fixed (not generated at start) so the simulator
//! needs no RSA key-generation dependency, and so tests can craft tokens with them.

use crate::id_token_fault::IdTokenFault;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};

/// A fixed RSA key pair and its JWK parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestKey {
    pub kid: &'static str,
    /// PKCS#1 PEM of the private key. A test fixture: never use it for anything real.
    pub private_pem: &'static str,
    /// PKCS#1 PEM of the public key (what an HS256 confusion attack uses as the secret).
    pub public_pem: &'static str,
    /// JWK `n`: the modulus, base64url without padding.
    pub n: &'static str,
    /// JWK `e`: the public exponent (65537).
    pub e: &'static str,
}

/// The fixture key `signing/test_key_<name>.pem` (its public half in `.pub.pem`), published
/// as `sim-key-<name>` with the exponent 65537 and the modulus `n`.
macro_rules! test_key {
    ($name:literal, n: $n:literal) => {
        TestKey {
            kid: concat!("sim-key-", $name),
            private_pem: include_str!(concat!("signing/test_key_", $name, ".pem")),
            public_pem: include_str!(concat!("signing/test_key_", $name, ".pub.pem")),
            n: $n,
            e: "AQAB",
        }
    };
}

/// The key the simulator signs with first.
pub const TEST_KEY_A: TestKey = test_key!(
    "a",
    n: "t6U7187BaytUtz6p2KFoFRWkA2tnpTFZh34utXQI58QgpRCe21yJ7JnlEVBAK1iKtEXtlXl0qSY21-WOqzhXuA3aVjOUKAsvXGRIpDH06CgJkA0tb32oSaMZRAoPvzfOQI58oxcTLEldF6qfHjvWTe5n51yGmrIO2Z3T2Zn0kE3Ktrg81BGn0156pvs5pG7nfg_toHYR0295r_ll8A9sAvJ0SKMZiurNn_dpecWB29SX6EgASE3Sqg2lzAH0ZgVyVrwvM36bPDUROJEZJyEoBoA7C880Rby4sgQ9yQLAclSKlqWHqHm46f0keCCfFA4FQ1H4FrnQWnSXzhTf92Yvmw"
);

/// The key after a rotation, and the "other" key of the wrong-signature fault.
pub const TEST_KEY_B: TestKey = test_key!(
    "b",
    n: "h_LL1N1wMVPv_azTmzmphDl-UB6HiFMoodD1RPMq6Uj_-YcE0AV0Z4NrC7HbS_C9-wP5fVnOxav0T9CxR5GbXDXtHHiLHicv-XV6RX2Dzqt4DSKbY_wE_X5ugPYKvS_YchbJJGeCqqFdKEe-Uu62UA66V-_RZWo6zaME8TbyFu4l0lm-AbnQW89evIcgxw81f85j3w96zUKE3VnxQqqGWslDhcFnqcD-ZZPlaSSykcDn0HKS2OkTjQKXgN48ZeP_kPGM7k2cDvKB1Vwhf3YVUXKdaiZ6gWDKxkvMFkrNWCCpinjblwwakHmHej_dQuAT23raWuZYLcnLeYDmFn9wew"
);

/// The fixed P-256 key of the providers that sign ES256 (Roblox). A test fixture too.
pub const TEST_EC_KEY: EcKey = EcKey {
    kid: "sim-ec-key",
    private_pem: include_str!("signing/test_ec_key.pem"),
    public_pem: include_str!("signing/test_ec_key.pub.pem"),
    x: "sLYBlZ9y18X0a9u2nGTQD0BjE6vLOHUfDjnlSOqm6VY",
    y: "SNOVrl7eMT4nTNOeSjjIhnd_NGWgAeDlTI-9TvsE320",
};

/// A fixed EC P-256 key pair and its JWK coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcKey {
    pub kid: &'static str,
    /// PKCS#8 PEM of the private key.
    pub private_pem: &'static str,
    /// SPKI PEM of the public key (what an HS256 confusion attack uses as the secret).
    pub public_pem: &'static str,
    pub x: &'static str,
    pub y: &'static str,
}

impl EcKey {
    pub fn jwk(&self) -> Value {
        json!({"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": self.kid, "x": self.x, "y": self.y})
    }

    /// Signs `claims` ES256 with `kid` in the header, or breaks the token the way `fault`
    /// says (header-level faults; claim-level ones were applied to `claims` already): the
    /// other key is Apple's fixture team key, another P-256 key.
    pub fn sign(&self, claims: &Value, fault: Option<IdTokenFault>) -> String {
        let (pem, kid) = match fault {
            Some(IdTokenFault::WrongSignature) => (crate::APPLE_TEST_KEY_PEM, self.kid),
            Some(IdTokenFault::UnknownKid) => (self.private_pem, UNKNOWN_KID),
            Some(IdTokenFault::AlgNone) => return unsigned(self.kid, claims),
            Some(IdTokenFault::HmacWithPublicKey) => {
                return hmac_with(self.public_pem, self.kid, claims);
            }
            _ => (self.private_pem, self.kid),
        };
        let key = EncodingKey::from_ec_pem(pem.as_bytes())
            .expect("the fixture EC keys are valid PKCS#8 PEMs");
        encode(Algorithm::ES256, kid, claims, &key)
    }
}

/// Signs `claims` HS256 with a client's secret, as LINE signs its web login's id_tokens.
pub fn sign_with_secret(secret: &str, claims: &Value) -> String {
    let key = EncodingKey::from_secret(secret.as_bytes());
    jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &key)
        .expect("HS256 signing succeeds")
}

/// The `kid` of the unknown-key fault: published by nobody.
pub const UNKNOWN_KID: &str = "sim-key-unknown";

impl TestKey {
    /// This key as a JWK, the way Google's `certs` lists it.
    pub fn jwk(&self) -> Value {
        json!({"kty": "RSA", "alg": "RS256", "use": "sig", "kid": self.kid, "n": self.n, "e": self.e})
    }

    /// Signs `claims` RS256 with this private key, with `kid` in the header.
    pub fn sign(&self, kid: &str, claims: &Value) -> String {
        encode(Algorithm::RS256, kid, claims, &self.encoding_key())
    }

    /// Signs `payload` exactly as given (any bytes, JSON or not) RS256 under `header`: a
    /// token no encoder would write, for tests of what a verifier does with its claims.
    pub fn sign_bytes(&self, header: &Value, payload: &[u8]) -> String {
        let message = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(payload)
        );
        let key = self.encoding_key();
        let signature = jsonwebtoken::crypto::sign(message.as_bytes(), &key, Algorithm::RS256)
            .expect("RS256 signing succeeds");
        format!("{message}.{signature}")
    }

    fn encoding_key(&self) -> EncodingKey {
        // The fixture PEMs are checked by a unit test; failing here is a broken fixture.
        EncodingKey::from_rsa_pem(self.private_pem.as_bytes())
            .expect("the fixture private key is a valid RSA PEM")
    }
}

/// The simulator-wide signing keys: key A until [`KeyRing::rotate`], then key B with both
/// published (as providers do during a rotation).
#[derive(Debug, Default)]
pub struct KeyRing {
    rotated: AtomicBool,
}

impl KeyRing {
    pub fn active(&self) -> &'static TestKey {
        if self.rotated.load(Ordering::SeqCst) {
            &TEST_KEY_B
        } else {
            &TEST_KEY_A
        }
    }

    fn other(&self) -> &'static TestKey {
        if self.rotated.load(Ordering::SeqCst) {
            &TEST_KEY_A
        } else {
            &TEST_KEY_B
        }
    }

    pub fn rotate(&self) {
        self.rotated.store(true, Ordering::SeqCst);
    }

    /// The JWKS document: `{"keys": [...]}`.
    pub fn jwks(&self) -> Value {
        let keys: Vec<Value> = if self.rotated.load(Ordering::SeqCst) {
            vec![TEST_KEY_A.jwk(), TEST_KEY_B.jwk()]
        } else {
            vec![TEST_KEY_A.jwk()]
        };
        json!({ "keys": keys })
    }

    /// Signs `claims` with the active key, or breaks the token the way `fault` says
    /// (header-level faults; claim-level ones were applied to `claims` already).
    pub fn sign(&self, claims: &Value, fault: Option<IdTokenFault>) -> String {
        let active = self.active();
        match fault {
            Some(IdTokenFault::WrongSignature) => self.other().sign(active.kid, claims),
            Some(IdTokenFault::UnknownKid) => active.sign(UNKNOWN_KID, claims),
            Some(IdTokenFault::AlgNone) => unsigned(active.kid, claims),
            Some(IdTokenFault::HmacWithPublicKey) => {
                hmac_with(active.public_pem, active.kid, claims)
            }
            _ => active.sign(active.kid, claims),
        }
    }
}

/// HS256 keyed with a public key's PEM: the algorithm confusion a careless verifier accepts.
fn hmac_with(public_pem: &str, kid: &str, claims: &Value) -> String {
    let key = EncodingKey::from_secret(public_pem.as_bytes());
    encode(Algorithm::HS256, kid, claims, &key)
}

/// `claims` signed `alg` with `key`, `kid` in the header.
fn encode(alg: Algorithm, kid: &str, claims: &Value, key: &EncodingKey) -> String {
    let mut header = Header::new(alg);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, key)
        .unwrap_or_else(|error| panic!("{alg:?} signing with a fixture key: {error}"))
}

/// `alg: none` with an empty signature: the token a careless verifier accepts.
fn unsigned(kid: &str, claims: &Value) -> String {
    let header = json!({"alg": "none", "typ": "JWT", "kid": kid});
    format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}
