//! Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, under
//! the key a `whsec_` secret encodes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt;

/// The receiver's shared key, decoded from `whsec_<base64>`. Never printed.
#[derive(Clone)]
pub struct WebhookSecret(Vec<u8>);

/// Why a webhook secret was refused (never quotes it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error("must start with whsec_")]
    MissingPrefix,
    #[error("the part after whsec_ is not base64")]
    NotBase64,
    #[error("the key must be 24 to 64 bytes")]
    BadLength,
}

impl WebhookSecret {
    pub fn parse(text: &str) -> Result<Self, SecretError> {
        let encoded = text
            .trim()
            .strip_prefix("whsec_")
            .ok_or(SecretError::MissingPrefix)?;
        let key = STANDARD
            .decode(encoded)
            .map_err(|_| SecretError::NotBase64)?;
        if !(24..=64).contains(&key.len()) {
            return Err(SecretError::BadLength);
        }
        Ok(Self(key))
    }

    /// The `webhook-signature` header value for one delivery.
    pub fn sign(&self, id: &str, timestamp: i64, body: &str) -> String {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(format!("{id}.{timestamp}.").as_bytes());
        mac.update(body.as_bytes());
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret([redacted])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks specification (its reference test vector).
    #[test]
    fn signs_the_standard_webhooks_reference_vector() {
        let secret = WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            secret.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn refuses_secrets_that_are_not_whsec_base64_keys() {
        assert_eq!(
            WebhookSecret::parse("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap_err(),
            SecretError::MissingPrefix
        );
        assert_eq!(
            WebhookSecret::parse("whsec_not base64!").unwrap_err(),
            SecretError::NotBase64
        );
        assert_eq!(
            WebhookSecret::parse("whsec_c2hvcnQ=").unwrap_err(),
            SecretError::BadLength
        );
        let secret = WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        assert!(!format!("{secret:?}").contains("MfKQ"));
    }
}
