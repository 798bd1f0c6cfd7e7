//! `appsecret_proof` (docs/providers.md#facebook): hex HMAC-SHA256 of the access token, keyed with
//! the app secret.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use social_login_domain::SecretText;

pub fn appsecret_proof(app_secret: &SecretText, access_token: &SecretText) -> String {
    // HMAC takes a key of any length; `new_from_slice` cannot fail for it.
    let mut mac = Hmac::<Sha256>::new_from_slice(app_secret.expose().as_bytes())
        .expect("HMAC accepts keys of any length");
    mac.update(access_token.expose().as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proof_is_the_rfc_4231_hmac_in_lowercase_hex() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        let proof = appsecret_proof(
            &SecretText::new("Jefe"),
            &SecretText::new("what do ya want for nothing?"),
        );
        assert_eq!(
            proof,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
