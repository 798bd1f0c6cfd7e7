//! Apple's client authentication: `client_secret` is an ES256 JWT the client signs with its
//! team's `.p8` key (PROVIDERS.md §8.3), verified here the way Apple's token endpoint does.

use super::team::AppleTeam;
use super::{APPLE_ISSUER, unix_now};
use crate::client_auth::presented;
use crate::config::{Provider, RegisteredClient};
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::http::HeaderMap;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

/// The longest lifetime Apple accepts for a client secret: six months.
pub const MAX_LIFETIME_SECS: i64 = 15_777_000;

/// The times of a client secret that verified: all the log keeps of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedSecret {
    pub iat: i64,
    pub exp: i64,
}

/// Why a client secret was refused. Every reason is answered `invalid_client`; the reason
/// itself is for the simulator's own tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretRefusal {
    /// Not a JWT, or its header is unreadable.
    Malformed,
    /// `alg` is not ES256.
    Algorithm,
    /// No seeded team key has this `kid`, or none verifies the signature.
    KeyOrSignature,
    Issuer,
    Subject,
    Audience,
    /// `iat` or `exp` missing, `iat` in the future, `exp` past, or lifetime over six months.
    Times,
}

/// Authenticates a token or revoke request: `client_secret_post` only (HTTP Basic is
/// refused), a registered Services ID, and a client secret that [`verify`]s. Notes in
/// `record` how the client authenticated and, when the secret verified, its `iat`/`exp`
/// (never the JWT). Every failure is `invalid_client`.
pub fn authenticate(
    sim: &SimState,
    headers: &HeaderMap,
    client_id: Option<&str>,
    client_secret: Option<&str>,
    record: &mut RequestRecord,
) -> Result<RegisteredClient, &'static str> {
    let presented = presented(headers, client_id, client_secret).ok_or("invalid_client")?;
    record.client_id = Some(presented.client_id.clone());
    record.client_auth = Some(presented.kind);
    if headers.contains_key(axum::http::header::AUTHORIZATION) {
        return Err("invalid_client");
    }
    let client = sim
        .client(Provider::Apple, &presented.client_id)
        .ok_or("invalid_client")?;
    let secret = presented.client_secret.as_deref().ok_or("invalid_client")?;
    let verified = verify(&sim.apple.teams, &client.client_id, secret, unix_now())
        .map_err(|_| "invalid_client")?;
    record.client_secret_iat = Some(verified.iat);
    record.client_secret_exp = Some(verified.exp);
    Ok(client.clone())
}

/// Verifies `jwt` as the secret of `client_id` at time `now` (seconds since the epoch).
pub fn verify(
    teams: &[AppleTeam],
    client_id: &str,
    jwt: &str,
    now: i64,
) -> Result<VerifiedSecret, SecretRefusal> {
    let header = jsonwebtoken::decode_header(jwt).map_err(|_| SecretRefusal::Malformed)?;
    if header.alg != Algorithm::ES256 {
        return Err(SecretRefusal::Algorithm);
    }
    let kid = header.kid.ok_or(SecretRefusal::KeyOrSignature)?;
    let (team, claims) = teams
        .iter()
        .filter(|team| team.key_id == kid)
        .find_map(|team| Some((team, signed_claims(team, jwt)?)))
        .ok_or(SecretRefusal::KeyOrSignature)?;
    if claims.get("iss").and_then(Value::as_str) != Some(team.team_id.as_str()) {
        return Err(SecretRefusal::Issuer);
    }
    if claims.get("sub").and_then(Value::as_str) != Some(client_id) {
        return Err(SecretRefusal::Subject);
    }
    // arctic sends the audience as a one-element array; Apple accepts both.
    let audience_ok = match claims.get("aud") {
        Some(Value::String(aud)) => aud == APPLE_ISSUER,
        Some(Value::Array(auds)) => auds.iter().any(|aud| aud == APPLE_ISSUER),
        _ => false,
    };
    if !audience_ok {
        return Err(SecretRefusal::Audience);
    }
    let time = |name: &str| claims.get(name).and_then(Value::as_i64);
    let (Some(iat), Some(exp)) = (time("iat"), time("exp")) else {
        return Err(SecretRefusal::Times);
    };
    if iat > now || exp <= now || exp - iat > MAX_LIFETIME_SECS {
        return Err(SecretRefusal::Times);
    }
    Ok(VerifiedSecret { iat, exp })
}

/// The claims of `jwt` if `team`'s public key verifies its ES256 signature.
fn signed_claims(team: &AppleTeam, jwt: &str) -> Option<Value> {
    let key = DecodingKey::from_ec_pem(team.public_key_pem.as_bytes()).ok()?;
    let mut validation = Validation::new(Algorithm::ES256);
    // The time and audience rules are Apple's, checked above with the simulator's clock.
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    jsonwebtoken::decode::<Value>(jwt, &key, &validation)
        .ok()
        .map(|data| data.claims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apple::team::{APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID};
    use jsonwebtoken::{EncodingKey, Header};
    use serde_json::json;

    const NOW: i64 = 1_767_225_600;
    /// A P-256 public key that is not the fixture team's.
    const OTHER_PUBLIC_KEY_PEM: &str = "-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEgwGL0xzw2cF/PnYtsfvWIBvr+IjH
5eLSJ32ayHssv70LRg30M2diCqS5QCWa8onfkyBIcZuoMGtTLRsWr+yiiA==
-----END PUBLIC KEY-----
";
    const CLIENT: &str = "com.example.web";

    fn claims() -> Value {
        json!({"iss": APPLE_TEST_TEAM_ID, "sub": CLIENT, "aud": APPLE_ISSUER,
               "iat": NOW, "exp": NOW + 300})
    }

    fn sign(alg: Algorithm, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(alg);
        header.kid = Some(kid.to_owned());
        let key = match alg {
            Algorithm::ES256 => EncodingKey::from_ec_pem(APPLE_TEST_KEY_PEM.as_bytes()).unwrap(),
            _ => EncodingKey::from_secret(b"a shared secret"),
        };
        jsonwebtoken::encode(&header, claims, &key).unwrap()
    }

    fn check(jwt: &str) -> Result<VerifiedSecret, SecretRefusal> {
        verify(&[AppleTeam::test_fixture()], CLIENT, jwt, NOW)
    }

    fn with(change: impl FnOnce(&mut Value)) -> String {
        let mut claims = claims();
        change(&mut claims);
        sign(Algorithm::ES256, APPLE_TEST_KEY_ID, &claims)
    }

    #[test]
    fn a_well_formed_secret_verifies_and_yields_its_times() {
        let jwt = sign(Algorithm::ES256, APPLE_TEST_KEY_ID, &claims());
        assert_eq!(
            check(&jwt),
            Ok(VerifiedSecret {
                iat: NOW,
                exp: NOW + 300
            })
        );
        let as_array = with(|c| c["aud"] = json!([APPLE_ISSUER]));
        assert!(check(&as_array).is_ok());
    }

    #[test]
    fn the_header_must_name_es256_and_a_seeded_key() {
        assert_eq!(check("not-a-jwt"), Err(SecretRefusal::Malformed));
        let hs256 = sign(Algorithm::HS256, APPLE_TEST_KEY_ID, &claims());
        assert_eq!(check(&hs256), Err(SecretRefusal::Algorithm));
        let unknown_kid = sign(Algorithm::ES256, "OTHERKEY01", &claims());
        assert_eq!(check(&unknown_kid), Err(SecretRefusal::KeyOrSignature));
        let other_team_key =
            AppleTeam::new(APPLE_TEST_TEAM_ID, APPLE_TEST_KEY_ID, OTHER_PUBLIC_KEY_PEM);
        let jwt = sign(Algorithm::ES256, APPLE_TEST_KEY_ID, &claims());
        assert_eq!(
            verify(&[other_team_key], CLIENT, &jwt, NOW),
            Err(SecretRefusal::KeyOrSignature)
        );
    }

    #[test]
    fn issuer_subject_and_audience_must_be_the_teams_and_clients() {
        let cases = [
            (
                with(|c| c["iss"] = json!("OTHERTEAM1")),
                SecretRefusal::Issuer,
            ),
            (
                with(|c| c["sub"] = json!("com.other.web")),
                SecretRefusal::Subject,
            ),
            (
                with(|c| c["aud"] = json!("https://example.com")),
                SecretRefusal::Audience,
            ),
            (
                with(|c| c["aud"] = json!(["https://example.com"])),
                SecretRefusal::Audience,
            ),
            (
                with(|c| _ = c.as_object_mut().unwrap().remove("aud")),
                SecretRefusal::Audience,
            ),
        ];
        for (jwt, refusal) in cases {
            assert_eq!(check(&jwt), Err(refusal));
        }
    }

    #[test]
    fn times_must_be_present_current_and_at_most_six_months_apart() {
        let cases = [
            with(|c| c["iat"] = json!(NOW + 1)),
            with(|c| c["exp"] = json!(NOW)),
            with(|c| c["exp"] = json!(NOW + MAX_LIFETIME_SECS + 1)),
            with(|c| _ = c.as_object_mut().unwrap().remove("iat")),
            with(|c| _ = c.as_object_mut().unwrap().remove("exp")),
        ];
        for jwt in cases {
            assert_eq!(check(&jwt), Err(SecretRefusal::Times));
        }
        let longest = with(|c| c["exp"] = json!(NOW + MAX_LIFETIME_SECS));
        assert!(check(&longest).is_ok());
    }
}
