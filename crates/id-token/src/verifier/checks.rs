//! The claim checks of OIDC Core §3.1.3.7 after the signature: issuer, audience, times and
//! nonce. Each failure names the check, never a claim's value.

use super::issuer::IssuerPolicy;
use crate::claims::IdTokenClaims;
use crate::tenant::{TENANT_PLACEHOLDER, issuer_matches};
use sha2::{Digest, Sha256};
use social_login_domain::SecretText;
use social_login_ports::ProviderError;
use subtle::ConstantTimeEq;
use time::{Duration, OffsetDateTime};

/// Clock skew tolerated between us and the provider, in seconds.
pub const CLOCK_LEEWAY_SECS: i64 = 60;

fn fail(what: &str) -> ProviderError {
    ProviderError::UserInfo(format!("id_token {what}"))
}

pub fn check_issuer(policy: &IssuerPolicy, claims: &IdTokenClaims) -> Result<(), ProviderError> {
    if claims.iss.is_none() {
        return Err(fail("has no issuer"));
    }
    if !policy.accepts(claims) {
        return Err(fail("issuer is not accepted"));
    }
    Ok(())
}

/// A key that names the issuer it signs for signs that issuer's tokens only, `{tenantid}`
/// in it being the token's `tid`: each of Entra's keys serves its own cloud or consumer
/// accounts, and one of them must not sign for any tenant (Microsoft's signing key issuer
/// validation, `AadTokenValidationParametersExtension.EnableAadSigningKeyIssuerValidation`).
pub fn check_key_issuer(
    key_issuer: Option<&str>,
    claims: &IdTokenClaims,
) -> Result<(), ProviderError> {
    let Some(key_issuer) = key_issuer else {
        return Ok(());
    };
    let iss = claims.iss.as_deref().unwrap_or_default();
    let signs_for_it = if key_issuer.contains(TENANT_PLACEHOLDER) {
        issuer_matches(key_issuer, iss, &claims.extra)
    } else {
        iss == key_issuer
    };
    if signs_for_it {
        Ok(())
    } else {
        Err(fail("is signed by a key of another issuer"))
    }
}

/// `aud` must contain our client id; with several audiences, `azp` must be present; and a
/// present `azp` must be our client id (the token was issued to us, not to another app).
#[cfg(test)]
pub fn check_audience(client_id: &str, claims: &IdTokenClaims) -> Result<(), ProviderError> {
    check_audience_among(&[client_id], claims)
}

/// The audience check with the client ids of one registration (the code flow: the web
/// client id alone; native sign-in: also the iOS bundle id, the Android client id): `aud`
/// must name one of them, with several audiences `azp` must be present, and a present
/// `azp` must be one of them too (Google's Android tokens: `aud` the web client, `azp` the
/// Android client).
pub fn check_audience_among(allowed: &[&str], claims: &IdTokenClaims) -> Result<(), ProviderError> {
    if !allowed
        .iter()
        .any(|client_id| claims.aud.contains(client_id))
    {
        return Err(fail("audience is not this client"));
    }
    match claims.azp.as_deref() {
        Some(azp) if !allowed.contains(&azp) => Err(fail("authorized party is not this client")),
        None if claims.aud.0.len() > 1 => Err(fail("has several audiences and no azp")),
        _ => Ok(()),
    }
}

/// `exp` and `iat` are required; `exp` must not be past and `iat`/`nbf` not in the future,
/// each with [`CLOCK_LEEWAY_SECS`] of tolerance. `now` is seconds since the epoch.
pub fn check_times(claims: &IdTokenClaims, now: i64) -> Result<(), ProviderError> {
    let exp = claims.exp.ok_or_else(|| fail("has no expiry (exp)"))?;
    let iat = claims.iat.ok_or_else(|| fail("has no issue time (iat)"))?;
    if now >= exp.saturating_add(CLOCK_LEEWAY_SECS) {
        return Err(fail("has expired (exp)"));
    }
    if iat > now.saturating_add(CLOCK_LEEWAY_SECS) {
        return Err(fail("is issued in the future (iat)"));
    }
    if claims
        .nbf
        .is_some_and(|nbf| nbf > now.saturating_add(CLOCK_LEEWAY_SECS))
    {
        return Err(fail("is not valid yet (nbf)"));
    }
    Ok(())
}

/// The `nonce` must equal the one stored with the state, compared in constant time: it
/// binds the token to this browser's sign-in and defeats replay of a stolen token.
pub fn check_nonce(expected: &SecretText, claims: &IdTokenClaims) -> Result<(), ProviderError> {
    let nonce = claims
        .nonce
        .as_deref()
        .ok_or_else(|| fail("has no nonce"))?;
    if !same_secret(nonce.as_bytes(), expected.expose().as_bytes()) {
        return Err(fail("nonce does not match"));
    }
    Ok(())
}

/// Equality of two secrets in time that depends on their lengths only, never on where they
/// first differ.
pub fn same_secret(presented: &[u8], expected: &[u8]) -> bool {
    bool::from(presented.ct_eq(expected))
}

/// The `nonce` must be the hex SHA-256 of the raw nonce the app chose (what Apple and Google
/// sign when the app hands them the hash), compared in constant time.
pub fn check_hashed_nonce(raw: &SecretText, claims: &IdTokenClaims) -> Result<(), ProviderError> {
    let hashed = SecretText::new(hex::encode(Sha256::digest(raw.expose().as_bytes())));
    check_nonce(&hashed, claims)
}

/// The nonce rule of a token an app presents: with the app's raw nonce, the token's `nonce`
/// must be its hash; without one, the token must carry no `nonce` at all. A token with a
/// nonce was issued for a sign-in holding the raw value (an app's, or a web code flow's
/// state), and without that value it proves nothing about who presents it.
pub fn check_presented_nonce(
    raw: Option<&SecretText>,
    claims: &IdTokenClaims,
) -> Result<(), ProviderError> {
    match (raw, &claims.nonce) {
        (Some(raw), _) => check_hashed_nonce(raw, claims),
        (None, Some(_)) => Err(fail("carries a nonce but the request has none")),
        (None, None) => Ok(()),
    }
}

/// When a token that passed [`check_times`] was issued (its `iat`).
pub fn issued_at(claims: &IdTokenClaims) -> Result<OffsetDateTime, ProviderError> {
    let iat = claims.iat.ok_or_else(|| fail("has no issue time (iat)"))?;
    OffsetDateTime::from_unix_timestamp(iat)
        .map_err(|_| fail("has an issue time no calendar holds (iat)"))
}

/// Until when a token that passed [`check_times`] verifies: `exp` plus the leeway. A token
/// living more than `longest` from `now` is refused: it could not be remembered as used for
/// as long as it verifies.
pub fn usable_until(
    claims: &IdTokenClaims,
    now: OffsetDateTime,
    longest: Duration,
) -> Result<OffsetDateTime, ProviderError> {
    let exp = claims.exp.ok_or_else(|| fail("has no expiry (exp)"))?;
    let until = OffsetDateTime::from_unix_timestamp(exp.saturating_add(CLOCK_LEEWAY_SECS))
        .ok()
        .filter(|until| *until <= now + longest)
        .ok_or_else(|| fail("expires too far ahead (exp)"))?;
    Ok(until)
}

#[cfg(test)]
mod tests;
