//! `appsecret_proof`: hex HMAC-SHA256 of the access token, keyed with the app secret.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Whether `proof` is the hex HMAC-SHA256(`app_secret`, `access_token`); the comparison
/// is constant-time (`verify_slice`).
pub fn proof_matches(app_secret: &str, access_token: &str, proof: &str) -> bool {
    let Ok(presented) = hex::decode(proof) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(app_secret.as_bytes()) else {
        return false;
    };
    mac.update(access_token.as_bytes());
    mac.verify_slice(&presented).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    const RFC_4231_2: &str = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

    #[test]
    fn the_rfc_4231_vector_matches() {
        assert!(proof_matches(
            "Jefe",
            "what do ya want for nothing?",
            RFC_4231_2
        ));
    }

    #[test]
    fn another_secret_token_or_a_non_hex_proof_does_not_match() {
        assert!(!proof_matches(
            "jefe",
            "what do ya want for nothing?",
            RFC_4231_2
        ));
        assert!(!proof_matches("Jefe", "what do ya want?", RFC_4231_2));
        assert!(!proof_matches("Jefe", "what do ya want for nothing?", "zz"));
        assert!(!proof_matches("Jefe", "what do ya want for nothing?", ""));
    }
}
