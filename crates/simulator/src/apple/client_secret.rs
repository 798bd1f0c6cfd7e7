//! Apple's client authentication: `client_secret` is an ES256 JWT the client signs with its
//! team's `.p8` key (PROVIDERS.md §8.3), verified here the way Apple's token endpoint does.

use super::APPLE_ISSUER;
use super::team::AppleTeam;
use crate::config::{Provider, RegisteredClient};
use crate::flow::{OAuthError, TokenParams, unix_now};
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::http::{HeaderMap, header};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;

/// The longest lifetime Apple accepts for a client secret: six months.
const MAX_LIFETIME_SECS: i64 = 15_777_000;

pub const INVALID_CLIENT: OAuthError = OAuthError::bare("invalid_client");

/// Authenticates a token or revoke request: `client_secret_post` only (HTTP Basic is
/// refused), a registered Services ID, and a client secret that [`verify`]s. Notes in
/// `record` how the client authenticated and, when the secret verified, its `iat`/`exp`
/// (never the JWT). Every failure is `invalid_client`.
pub fn authenticate(
    sim: &SimState,
    headers: &HeaderMap,
    params: &TokenParams,
    record: &mut RequestRecord,
) -> Result<RegisteredClient, OAuthError> {
    let presented = params.note(record, headers).ok_or(INVALID_CLIENT)?;
    if headers.contains_key(header::AUTHORIZATION) {
        return Err(INVALID_CLIENT);
    }
    let client = sim
        .client(Provider::Apple, &presented.client_id)
        .ok_or(INVALID_CLIENT)?;
    let secret = presented.client_secret.as_deref().ok_or(INVALID_CLIENT)?;
    let (iat, exp) =
        verify(&sim.apple.teams, &client.client_id, secret, unix_now()).ok_or(INVALID_CLIENT)?;
    record.client_secret_iat = Some(iat);
    record.client_secret_exp = Some(exp);
    Ok(client.clone())
}

/// Verifies `jwt` as the secret of `client_id` at time `now` (seconds since the epoch):
/// ES256 by a seeded team key (`kid`), `iss` the team, `sub` the client, `aud` Apple,
/// `iat` not in the future, `exp` not past, at most six months apart. Its `(iat, exp)`.
fn verify(teams: &[AppleTeam], client_id: &str, jwt: &str, now: i64) -> Option<(i64, i64)> {
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
