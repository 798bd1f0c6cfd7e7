//! What every provider's tests need: a relying party of a simulated provider
//! ([`SimClient`]), one registered client per provider ([`fixtures`]), parameters to vary
//! ([`Params`]), the RFC 7636 PKCE pair and unverified JWT claims.

mod client;
pub mod fixtures;
mod params;

pub use client::{
    SimClient, apple_secret_claims, apple_secret_with, http, proof, status_and_json, unix_now,
};
pub use params::Params;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
use social_login_simulator::TEST_KEY_A;

// RFC 7636 appendix B.
pub const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
pub const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
/// A verifier of the right shape that does not match [`CHALLENGE`].
pub const OTHER_VERIFIER: &str = "eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
pub const NONCE: &str = "nonce-0123456789";

/// The status of an answer and its OAuth `error` ("" when it has none).
pub fn refusal(answer: &(u16, Value)) -> (u16, &str) {
    (answer.0, answer.1["error"].as_str().unwrap_or_default())
}

/// The claims of a JWT, unchecked (to inspect a broken token; the adapters' tests check).
pub fn claims_of(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// The claims of an id_token the simulator signed for `audience` and `issuer`, once its
/// RS256 signature checks out with the published key A.
pub fn verified_claims(id_token: &str, audience: &str, issuer: &str) -> Value {
    let key = DecodingKey::from_rsa_components(TEST_KEY_A.n, TEST_KEY_A.e).unwrap();
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[audience]);
    validation.set_issuer(&[issuer]);
    let header = jsonwebtoken::decode_header(id_token).unwrap();
    assert_eq!(header.kid.as_deref(), Some(TEST_KEY_A.kid));
    jsonwebtoken::decode::<Value>(id_token, &key, &validation)
        .unwrap()
        .claims
}
