//! The apple signing fields: Team ID, key ID and the `.p8` key that signs the client secret.

use crate::settings::{ConfigErrors, Settings};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use secrecy::ExposeSecret;

const REQUIRED: &str = "required when oauth_providers.apple is enabled";

/// Called only when apple is enabled.
pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    let blank = |value: Option<&str>| value.is_none_or(|value| value.trim().is_empty());
    if blank(settings.apple_team_id.as_deref()) {
        errors.push("apple_team_id", REQUIRED);
    }
    if blank(settings.apple_key_id.as_deref()) {
        errors.push("apple_key_id", REQUIRED);
    }
    match settings.apple_private_key_pem.as_ref() {
        Some(pem) if !pem.expose_secret().trim().is_empty() => {
            if let Err(reason) = check_private_key(pem.expose_secret()) {
                errors.push("apple_private_key_pem", reason);
            }
        }
        _ => errors.push("apple_private_key_pem", REQUIRED),
    }
}

/// Accepts exactly what Apple's `.p8` download is: a PEM PKCS#8 P-256 private key.
/// Reasons are fixed texts: the key itself, or the parser's view of it, is never echoed.
fn check_private_key(pem: &str) -> Result<(), &'static str> {
    let pem = pem.trim();
    if pem.starts_with("-----BEGIN EC PRIVATE KEY-----") {
        return Err("a SEC1 key (BEGIN EC PRIVATE KEY); convert it with \
                    `openssl pkcs8 -topk8 -nocrypt` or use Apple's .p8 file as is");
    }
    if !pem.starts_with("-----BEGIN PRIVATE KEY-----") {
        return Err(
            "not a PEM PKCS#8 private key (expected -----BEGIN PRIVATE KEY-----, \
                    the .p8 file from Apple)",
        );
    }
    let key = EncodingKey::from_ec_pem(pem.as_bytes())
        .map_err(|_| "not a readable PKCS#8 EC private key")?;
    // from_ec_pem checks the armour and the EC family only: one ES256 signature proves the
    // curve is P-256 and the key material sound, before the first real sign-in needs it.
    jsonwebtoken::encode(
        &Header::new(Algorithm::ES256),
        &serde_json::Map::new(),
        &key,
    )
    .map_err(|_| "not a P-256 key usable for ES256")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::tests::fixtures::{P256_PEM, P384_PEM};

    #[test]
    fn a_p256_pkcs8_key_is_accepted() {
        assert_eq!(check_private_key(P256_PEM), Ok(()));
    }

    #[test]
    fn a_p384_key_is_rejected_for_its_curve() {
        assert_eq!(
            check_private_key(P384_PEM),
            Err("not a P-256 key usable for ES256")
        );
    }

    #[test]
    fn a_sec1_key_is_rejected_with_a_conversion_hint() {
        let sec1 = P256_PEM.replace("PRIVATE KEY", "EC PRIVATE KEY");
        assert!(check_private_key(&sec1).unwrap_err().contains("pkcs8"));
    }

    #[test]
    fn armour_around_garbage_is_rejected() {
        let garbage = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
        assert!(check_private_key(garbage).is_err());
        assert!(check_private_key("just text").is_err());
    }
}
