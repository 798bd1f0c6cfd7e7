//! Apple's client secret (docs/providers.md#apple, docs/providers.md#apple): Apple takes no static secret, so
//! every token exchange gets a fresh ES256 JWT signed with the team's `.p8` key, valid for
//! five minutes (docs/configuration.md).

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Serialize;
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::{ProviderConfigError, require_non_empty};
use std::sync::Arc;
use time::Duration;

/// The `aud` of every client secret.
pub const APPLE_AUDIENCE: &str = "https://appleid.apple.com";

/// How long a client secret is valid. Minted per exchange, it needs no more.
pub const CLIENT_SECRET_LIFETIME: Duration = Duration::minutes(5);

/// The setting that holds the team's key.
pub const KEY_FIELD: &str = "apple_private_key_pem";

/// Signs client secrets for one Services ID. The key is parsed once, at start-up.
#[derive(derive_more::Debug, Clone)]
pub struct ClientSecretSigner {
    team_id: String,
    key_id: String,
    client_id: String,
    #[debug("[redacted]")]
    key: EncodingKey,
    #[debug(skip)]
    clock: Arc<dyn Clock>,
}

#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    iat: i64,
    exp: i64,
    aud: &'a str,
    sub: &'a str,
}

impl ClientSecretSigner {
    /// Checks the team id, the key id and the key. Errors name the setting
    /// (`apple_team_id`, `apple_key_id`, `apple_private_key_pem`), never the key.
    pub fn new(
        team_id: &str,
        key_id: &str,
        private_key_pem: &SecretText,
        client_id: &str,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ProviderConfigError> {
        require_non_empty("apple_team_id", team_id)?;
        require_non_empty("apple_key_id", key_id)?;
        require_non_empty(KEY_FIELD, private_key_pem.expose())?;
        let key = read_team_key(private_key_pem.expose()).map_err(|reason| {
            ProviderConfigError::Invalid {
                field: KEY_FIELD,
                reason,
            }
        })?;
        Ok(Self {
            team_id: team_id.trim().to_owned(),
            key_id: key_id.trim().to_owned(),
            client_id: client_id.to_owned(),
            key,
            clock,
        })
    }

    /// A new secret: header `alg: ES256`, `kid`; claims `iss` = team id, `iat` = now,
    /// `exp` = now + 5 minutes, `aud` = Apple, `sub` = the Services ID.
    pub fn sign(&self) -> Result<SecretText, ProviderError> {
        self.sign_as(&self.client_id)
    }

    /// The same for another client id of the team: an app's bundle id, whose grants (the
    /// codes the app received on the device) are exchanged and revoked as that client.
    pub fn sign_as(&self, client_id: &str) -> Result<SecretText, ProviderError> {
        let now = self.clock.now();
        let claims = Claims {
            iss: &self.team_id,
            iat: now.unix_timestamp(),
            exp: (now + CLIENT_SECRET_LIFETIME).unix_timestamp(),
            aud: APPLE_AUDIENCE,
            sub: client_id,
        };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.key_id.clone());
        jsonwebtoken::encode(&header, &claims, &self.key)
            .map(SecretText::new)
            .map_err(|_| ProviderError::CodeExchange("client secret could not be signed".into()))
    }
}

/// Accepts exactly what Apple's `.p8` download is: a PEM PKCS#8 P-256 private key.
/// Reasons are fixed texts: the key itself, or the parser's view of it, is never echoed.
pub fn read_team_key(pem: &str) -> Result<EncodingKey, &'static str> {
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
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{DecodingKey, Validation};
    use serde_json::Value;
    use social_login_ports::SystemClock;
    use social_login_simulator::{APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM};
    use time::OffsetDateTime;

    struct FixedClock(OffsetDateTime);

    impl Clock for FixedClock {
        fn now(&self) -> OffsetDateTime {
            self.0
        }
    }

    const P384_PEM: &str = include_str!("../tests/apple/p384_key.p8");

    fn signer(pem: &str) -> Result<ClientSecretSigner, ProviderConfigError> {
        ClientSecretSigner::new(
            "TEAM123456",
            "KEY1234567",
            &SecretText::new(pem),
            "com.example.web",
            Arc::new(SystemClock),
        )
    }

    fn decode(secret: &SecretText) -> (jsonwebtoken::Header, Value) {
        let key = DecodingKey::from_ec_pem(APPLE_TEST_PUBLIC_KEY_PEM.as_bytes()).unwrap();
        let mut validation = Validation::new(Algorithm::ES256);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        validation.validate_aud = false;
        let data = jsonwebtoken::decode::<Value>(secret.expose(), &key, &validation).unwrap();
        (data.header, data.claims)
    }

    #[test]
    fn a_secret_carries_the_team_key_and_client_and_lives_five_minutes() {
        let at = OffsetDateTime::from_unix_timestamp(1_767_225_600).unwrap();
        let signer = ClientSecretSigner::new(
            "TEAM123456",
            "KEY1234567",
            &SecretText::new(APPLE_TEST_KEY_PEM),
            "com.example.web",
            Arc::new(FixedClock(at)),
        )
        .unwrap();
        let (header, claims) = decode(&signer.sign().unwrap());
        assert_eq!(header.alg, Algorithm::ES256);
        assert_eq!(header.kid.as_deref(), Some("KEY1234567"));
        assert_eq!(claims["iss"], "TEAM123456");
        assert_eq!(claims["sub"], "com.example.web");
        assert_eq!(claims["aud"], "https://appleid.apple.com");
        assert_eq!(claims["iat"], 1_767_225_600);
        assert_eq!(claims["exp"], 1_767_225_600 + 300);
    }

    #[test]
    fn a_secret_for_an_apps_bundle_id_names_it_as_subject() {
        let secret = signer(APPLE_TEST_KEY_PEM)
            .unwrap()
            .sign_as("com.example.ios")
            .unwrap();
        let (_, claims) = decode(&secret);
        assert_eq!(claims["sub"], "com.example.ios");
        assert_eq!(claims["iss"], "TEAM123456");
    }

    #[test]
    fn every_call_signs_a_new_secret() {
        let signer = signer(APPLE_TEST_KEY_PEM).unwrap();
        assert_ne!(signer.sign().unwrap(), signer.sign().unwrap());
    }

    #[test]
    fn bad_keys_are_refused_naming_the_setting_but_never_the_key() {
        let sec1 = APPLE_TEST_KEY_PEM.replace("PRIVATE KEY", "EC PRIVATE KEY");
        let garbage = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
        for pem in [garbage, "just text", sec1.as_str(), P384_PEM, "  "] {
            let error = signer(pem).unwrap_err().to_string();
            assert!(error.starts_with("apple_private_key_pem "), "{error}");
            assert!(!error.contains("MIG") && !error.contains("bm90"), "{error}");
        }
    }

    #[test]
    fn a_p256_pkcs8_key_is_read_and_others_are_refused_with_a_fixed_reason() {
        assert!(read_team_key(APPLE_TEST_KEY_PEM).is_ok());
        let refusal = |pem: &str| read_team_key(pem).err().unwrap();
        assert_eq!(refusal(P384_PEM), "not a P-256 key usable for ES256");
        let sec1 = APPLE_TEST_KEY_PEM.replace("PRIVATE KEY", "EC PRIVATE KEY");
        assert!(refusal(&sec1).contains("pkcs8"));
        let garbage = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
        assert_eq!(refusal(garbage), "not a readable PKCS#8 EC private key");
        assert!(refusal("just text").starts_with("not a PEM PKCS#8 private key"));
    }

    #[test]
    fn a_blank_team_or_key_id_is_refused_by_name() {
        let pem = SecretText::new(APPLE_TEST_KEY_PEM);
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let no_team = ClientSecretSigner::new(" ", "K", &pem, "c", clock.clone()).unwrap_err();
        assert_eq!(
            no_team,
            ProviderConfigError::Missing {
                field: "apple_team_id"
            }
        );
        let no_key = ClientSecretSigner::new("T", "", &pem, "c", clock).unwrap_err();
        assert_eq!(
            no_key,
            ProviderConfigError::Missing {
                field: "apple_key_id"
            }
        );
    }

    #[test]
    fn debug_output_shows_no_key_material() {
        let printed = format!("{:?}", signer(APPLE_TEST_KEY_PEM).unwrap());
        assert!(
            printed.contains("[redacted]") && !printed.contains("MIG"),
            "{printed}"
        );
    }
}
