//! Apple's client authentication: `client_secret` is an ES256 JWT the client signs with its
//! team's `.p8` key (docs/providers.md#apple), verified here the way Apple's token endpoint does.

use super::APPLE_ISSUER;
use super::team::AppleTeam;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

/// The longest lifetime Apple accepts for a client secret: six months.
const MAX_LIFETIME_SECS: i64 = 15_777_000;

/// Verifies `jwt` as the secret of `client_id` at time `now` (seconds since the epoch):
/// ES256 by a seeded team key (`kid`), `iss` the team, `sub` the client, `aud` Apple,
/// `iat` not in the future, `exp` not past, at most six months apart. Its `(iat, exp)`.
pub fn verify(teams: &[AppleTeam], client_id: &str, jwt: &str, now: i64) -> Option<(i64, i64)> {
    let header = jsonwebtoken::decode_header(jwt).ok()?;
    if header.alg != Algorithm::ES256 {
        return None;
    }
    let kid = header.kid?;
    let (team, claims) = teams
        .iter()
        .filter(|team| team.key_id == kid)
        .find_map(|team| Some((team, signed_claims(team, jwt)?)))?;
    let text = |name: &str| claims.get(name).and_then(Value::as_str);
    // arctic sends the audience as a one-element array; Apple accepts both.
    let audience_ok = match claims.get("aud") {
        Some(Value::String(aud)) => aud == APPLE_ISSUER,
        Some(Value::Array(auds)) => auds.iter().any(|aud| aud == APPLE_ISSUER),
        _ => false,
    };
    if text("iss") != Some(team.team_id.as_str()) || text("sub") != Some(client_id) || !audience_ok
    {
        return None;
    }
    let time = |name: &str| claims.get(name).and_then(Value::as_i64);
    let (iat, exp) = (time("iat")?, time("exp")?);
    (iat <= now && exp > now && exp - iat <= MAX_LIFETIME_SECS).then_some((iat, exp))
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
