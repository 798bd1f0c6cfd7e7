//! Tests of `JwtSessionTokens`: access-token checks, forged algorithms, rotation, refresh.

use super::*;
use crate::keys::{Purpose, derive_key};
use aws_lc_rs::signature::Ed25519KeyPair;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::EncodingKey;
use social_login_domain::refresh::RefreshTokenHash;
use social_login_domain::{FamilyId, UserId};

fn secret(label: &str) -> SecretText {
    SecretText::new(format!("{label}-secret-key-of-at-least-32-bytes"))
}

fn tokens_with(current: &str, previous: &[&str]) -> JwtSessionTokens {
    let previous: Vec<_> = previous.iter().map(|label| secret(label)).collect();
    JwtSessionTokens::new(
        &secret(current),
        &previous,
        Duration::minutes(15),
        Duration::days(30),
    )
}

fn tokens() -> JwtSessionTokens {
    tokens_with("current", &[])
}

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_750_000_000).unwrap()
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// How a forged token is signed.
enum Sign {
    /// No signature at all.
    Nothing,
    /// The real current Ed25519 key: only the header and claims checks can refuse it.
    Real,
    /// HMAC with `alg` under `key`.
    Hmac(Algorithm, Vec<u8>),
}

/// A token with the given raw header and our valid claims for `user`, signed as `sign` says.
fn forged(user: UserId, header: &str, sign: Sign) -> String {
    forged_with(user, header, sign, |_| {})
}

/// [`forged`] with claims changed by `patch`.
fn forged_with(
    user: UserId,
    header: &str,
    sign: Sign,
    patch: impl FnOnce(&mut serde_json::Value),
) -> String {
    let mut claims = serde_json::json!({
        "sub": user.to_string(), "iat": now().unix_timestamp(),
        "exp": (now() + Duration::minutes(15)).unix_timestamp(),
        "iss": ISSUER, "token_use": "access", "jti": "forged",
    });
    patch(&mut claims);
    let message = format!(
        "{}.{}",
        b64(header.as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    let signature = match sign {
        Sign::Nothing => String::new(),
        Sign::Real => {
            // Through jsonwebtoken, not our signer: an independent signature of the forgery.
            let seed = derive_key(&secret("current"), Purpose::AccessTokenSigning);
            let pair = Ed25519KeyPair::from_seed_unchecked(&seed).unwrap();
            let key = EncodingKey::from_ed_der(pair.to_pkcs8v1().unwrap().as_ref());
            jsonwebtoken::crypto::sign(message.as_bytes(), &key, Algorithm::EdDSA).unwrap()
        }
        Sign::Hmac(alg, key) => {
            jsonwebtoken::crypto::sign(message.as_bytes(), &EncodingKey::from_secret(&key), alg)
                .unwrap()
        }
    };
    format!("{message}.{signature}")
}

fn current_kid() -> String {
    tokens().public_keys()[0].kid().to_owned()
}

fn eddsa_header() -> String {
    format!(r#"{{"alg":"EdDSA","typ":"JWT","kid":"{}"}}"#, current_kid())
}

#[test]
fn an_issued_access_token_verifies_to_its_user_and_the_time_of_its_login() {
    let tokens = tokens();
    let user = UserId::new();
    let login = now() - Duration::hours(3);
    let session = FamilyId::new();
    let issue = AccessIssue {
        user,
        session,
        auth_time: login,
    };
    let issued = tokens.issue_access(issue, now()).unwrap();
    assert_eq!(issued.expires_at, now() + Duration::minutes(15));
    assert_eq!(
        tokens.verify_access(issued.value.expose(), now()),
        Some(VerifiedAccess {
            user,
            issued_at: now(),
            auth_time: Some(login),
            session: Some(session),
        }),
        "the user, when it was issued, its session, and when that session's login happened"
    );
}

#[test]
fn a_token_without_auth_time_stays_valid_but_says_no_login_time() {
    // Issued before access tokens carried `auth_time`: valid until it expires, never recent.
    let user = UserId::new();
    let token = forged(user, &eddsa_header(), Sign::Real);
    assert_eq!(
        tokens().verify_access(&token, now()),
        Some(VerifiedAccess {
            user,
            issued_at: now(),
            auth_time: None,
            session: None,
        })
    );
}

#[test]
fn the_token_carries_the_documented_header_and_claims() {
    let issued = issued_now(&tokens(), UserId::new());
    let header = jsonwebtoken::decode_header(issued.value.expose()).unwrap();
    assert_eq!(header.alg, Algorithm::EdDSA);
    assert_eq!(header.kid, Some(current_kid()));
    let claims = payload(issued.value.expose());
    assert_eq!(claims["iss"], "social-login");
    assert_eq!(claims["token_use"], "access");
    assert_eq!(claims["iat"], now().unix_timestamp());
    assert_eq!(claims["auth_time"], now().unix_timestamp());
    assert!(claims.get("aud").is_none(), "no audience configured");
    assert!(claims["jti"].as_str().is_some_and(|jti| jti.len() >= 20));
}

fn payload(token: &str) -> serde_json::Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

#[test]
fn the_configured_issuer_and_audience_are_signed_and_required() {
    let configured = || {
        tokens()
            .with_issuer("https://auth.example.com")
            .with_audience(Some("api.example.com".into()))
    };
    let user = UserId::new();
    let issued = issued_now(&configured(), user);
    let claims = payload(issued.value.expose());
    assert_eq!(claims["iss"], "https://auth.example.com");
    assert_eq!(claims["aud"], "api.example.com");
    let token = issued.value.expose();
    assert_eq!(
        configured().verify_access(token, now()).map(|a| a.user),
        Some(user)
    );

    // The same key under another issuer or audience refuses it, and a token without `aud`
    // is refused where one is required.
    let other_issuer = configured().with_issuer("https://other.example.com");
    let other_audience = configured().with_audience(Some("other".into()));
    let no_audience = configured().with_audience(None);
    for verifier in [other_issuer, other_audience, no_audience] {
        assert_eq!(verifier.verify_access(token, now()), None, "{verifier:?}");
    }
    let plain = issued_now(&tokens().with_issuer("https://auth.example.com"), user);
    assert_eq!(
        configured().verify_access(plain.value.expose(), now()),
        None
    );
}

#[test]
fn each_token_gets_its_own_id() {
    let (tokens, user, first) = a_new_users_token();
    let second = issued_now(&tokens, user);
    assert_ne!(first.value, second.value);
}

#[test]
fn a_token_is_refused_from_its_expiry_on() {
    let (tokens, user, issued) = a_new_users_token();
    let token = issued.value.expose();
    let last_valid = issued.expires_at - Duration::seconds(1);
    assert_eq!(
        tokens.verify_access(token, last_valid).map(|a| a.user),
        Some(user)
    );
    assert_eq!(tokens.verify_access(token, issued.expires_at), None);
    assert_eq!(tokens.verify_access(token, now() + Duration::days(1)), None);
}

#[test]
fn a_token_signed_with_another_secret_is_refused() {
    let user = UserId::new();
    let theirs = issued_now(&tokens_with("theirs", &[]), user);
    assert_eq!(tokens().verify_access(theirs.value.expose(), now()), None);
}

#[test]
fn a_token_signed_under_a_previous_key_verifies_after_rotation() {
    let user = UserId::new();
    let before = issued_now(&tokens_with("old", &[]), user);
    let rotated = tokens_with("new", &["old"]);
    assert_eq!(
        rotated
            .verify_access(before.value.expose(), now())
            .map(|a| a.user),
        Some(user)
    );

    let after = issued_now(&rotated, user);
    let kid = jsonwebtoken::decode_header(after.value.expose())
        .unwrap()
        .kid;
    assert_eq!(
        kid,
        Some(tokens_with("new", &[]).public_keys()[0].kid().into())
    );
    // Dropping the old key from the configuration ends its tokens.
    assert_eq!(
        tokens_with("new", &[]).verify_access(before.value.expose(), now()),
        None
    );
}

#[test]
fn the_public_keys_are_the_current_then_the_previous_ones_once_each() {
    let kid = |label: &str| tokens_with(label, &[]).public_keys()[0].kid().to_owned();
    let rotated = tokens_with("new", &["old", "older", "old"]);
    let kids: Vec<_> = rotated
        .public_keys()
        .iter()
        .map(|k| k.kid().to_owned())
        .collect();
    assert_eq!(kids, [kid("new"), kid("old"), kid("older")]);
    assert_ne!(kid("new"), kid("old"));
}

#[test]
fn the_control_forgery_signed_with_the_real_key_is_accepted() {
    // Guards the forgery tests below: the same construction with the real key does verify,
    // so their refusal is due to the algorithm or the claim alone.
    let user = UserId::new();
    let token = forged(user, &eddsa_header(), Sign::Real);
    assert_eq!(
        tokens().verify_access(&token, now()).map(|a| a.user),
        Some(user)
    );
}

#[test]
fn an_unsigned_alg_none_token_is_refused() {
    let kid = current_kid();
    for alg in ["none", "None", "NONE"] {
        let header = format!(r#"{{"alg":"{alg}","typ":"JWT","kid":"{kid}"}}"#);
        let token = forged(UserId::new(), &header, Sign::Nothing);
        assert_eq!(tokens().verify_access(&token, now()), None, "alg {alg}");
    }
}

/// Every secret an attacker might hope the service would accept as an HMAC key: the public
/// key (raw and as its JWK `x`), the kid, every key the service derives from its secret
/// (including the former HS256 access-token key) and the secret itself.
fn derivable_hmac_keys() -> Vec<Vec<u8>> {
    let secret = secret("current");
    let jwk = tokens().public_keys()[0].clone();
    let former_hs256 = {
        let hkdf = hkdf::Hkdf::<Sha256>::new(
            Some(b"social-login/v1/hkdf-salt"),
            secret.expose().as_bytes(),
        );
        let mut key = [0u8; 32];
        hkdf.expand(b"social-login/v1/access-token", &mut key)
            .unwrap();
        key.to_vec()
    };
    let mut keys = vec![
        URL_SAFE_NO_PAD.decode(jwk.x()).unwrap(),
        jwk.x().as_bytes().to_vec(),
        jwk.kid().as_bytes().to_vec(),
        former_hs256,
        secret.expose().as_bytes().to_vec(),
    ];
    for purpose in [
        Purpose::TokenCipher,
        Purpose::AccessTokenSigning,
        Purpose::StateToken,
        Purpose::RefreshTokenMac,
    ] {
        keys.push(derive_key(&secret, purpose).to_vec());
    }
    keys
}

#[test]
fn hmac_tokens_are_refused_whatever_key_signed_them() {
    let kid = current_kid();
    for (name, alg) in [
        ("HS256", Algorithm::HS256),
        ("HS384", Algorithm::HS384),
        ("HS512", Algorithm::HS512),
    ] {
        let header = format!(r#"{{"alg":"{name}","typ":"JWT","kid":"{kid}"}}"#);
        for (i, key) in derivable_hmac_keys().into_iter().enumerate() {
            let token = forged(UserId::new(), &header, Sign::Hmac(alg, key));
            assert_eq!(
                tokens().verify_access(&token, now()),
                None,
                "{name} key {i}"
            );
        }
    }
}

#[test]
fn an_eddsa_signature_under_another_header_algorithm_is_refused() {
    let kid = current_kid();
    for alg in ["RS256", "ES256", "PS256", "HS256", "Ed25519"] {
        let header = format!(r#"{{"alg":"{alg}","typ":"JWT","kid":"{kid}"}}"#);
        let token = forged(UserId::new(), &header, Sign::Real);
        assert_eq!(tokens().verify_access(&token, now()), None, "alg {alg}");
    }
}

#[test]
fn a_tampered_payload_or_signature_is_refused() {
    let (tokens, _, issued) = a_new_users_token();
    let parts: Vec<&str> = issued.value.expose().split('.').collect();
    let mut claims = payload(issued.value.expose());
    claims["sub"] = UserId::new().to_string().into();
    let payload_swapped = format!(
        "{}.{}.{}",
        parts[0],
        b64(claims.to_string().as_bytes()),
        parts[2]
    );
    let mut signature = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
    signature[10] ^= 1;
    let signature_flipped = format!("{}.{}.{}", parts[0], parts[1], b64(&signature));
    let signature_cut = format!("{}.{}.{}", parts[0], parts[1], &parts[2][..40]);
    for token in [payload_swapped, signature_flipped, signature_cut] {
        assert_eq!(tokens.verify_access(&token, now()), None, "{token}");
    }
}

#[test]
fn tokens_without_kid_with_an_unknown_kid_or_malformed_are_refused() {
    let user = UserId::new();
    let no_kid = forged(user, r#"{"alg":"EdDSA","typ":"JWT"}"#, Sign::Real);
    let unknown = forged(
        user,
        r#"{"alg":"EdDSA","typ":"JWT","kid":"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"}"#,
        Sign::Real,
    );
    for token in [
        no_kid,
        unknown,
        String::new(),
        "a.b.c".into(),
        "x".repeat(5000),
    ] {
        assert_eq!(tokens().verify_access(&token, now()), None);
    }
}

#[test]
fn validly_signed_tokens_of_another_kind_issuer_or_audience_are_refused() {
    let patches: [fn(&mut serde_json::Value); 7] = [
        |c| c["token_use"] = "refresh".into(),
        |c| c["iss"] = "someone-else".into(),
        |c| c["sub"] = "not-a-uuid".into(),
        |c| c["aud"] = "some-api".into(),
        |c| c["aud"] = serde_json::json!(["some-api"]),
        |c| _ = c.as_object_mut().unwrap().remove("exp"),
        |c| _ = c.as_object_mut().unwrap().remove("token_use"),
    ];
    for (i, patch) in patches.into_iter().enumerate() {
        let token = forged_with(UserId::new(), &eddsa_header(), Sign::Real, patch);
        assert_eq!(tokens().verify_access(&token, now()), None, "patch {i}");
    }
}

fn issue() -> RefreshIssue {
    RefreshIssue {
        family: FamilyId::new(),
        expires_at: OffsetDateTime::from_unix_timestamp(1_900_000_000).unwrap(),
    }
}

#[test]
fn a_refresh_token_proves_its_family_and_expiry_and_is_stored_as_the_sha256_of_its_secret() {
    let tokens = tokens();
    let issued = tokens.new_refresh();
    let secret = URL_SAFE_NO_PAD.decode(issued.secret.expose()).unwrap();
    assert_eq!(secret.len(), 32);
    assert_eq!(
        issued.hash,
        RefreshTokenHash(Sha256::digest(&secret).into())
    );
    let issue = issue();
    let value = tokens.refresh_value(&issued, issue);
    assert_eq!(value.expose().len(), 102);
    assert!(
        !value.expose().contains(issued.secret.expose()),
        "encoded, not appended"
    );
    assert_eq!(
        tokens.read_refresh(value.expose()),
        PresentedRefresh {
            hash: issued.hash,
            issued_in: Some(issue)
        }
    );
    let other = tokens.new_refresh();
    assert_ne!(issued.secret, other.secret);
    assert_ne!(issued.hash, other.hash);
}

#[test]
fn a_refresh_token_with_any_byte_changed_proves_nothing_and_one_of_its_secret_finds_no_row() {
    let tokens = tokens();
    let issued = tokens.new_refresh();
    let value = tokens.refresh_value(&issued, issue());
    let bytes = URL_SAFE_NO_PAD.decode(value.expose()).unwrap();
    let secret = 4..36;
    for i in 0..bytes.len() {
        let mut forged = bytes.clone();
        forged[i] ^= 0x01;
        let read = tokens.read_refresh(&URL_SAFE_NO_PAD.encode(&forged));
        assert_eq!(read.issued_in, None, "byte {i}");
        assert_eq!(read.hash == issued.hash, !secret.contains(&i), "byte {i}");
    }
    let truncated = tokens.read_refresh(&value.expose()[..101]);
    assert_eq!(truncated.issued_in, None);
    assert_ne!(truncated.hash, issued.hash);
}

#[test]
fn a_refresh_token_of_a_previous_key_proves_itself_and_one_of_a_dropped_key_is_still_found() {
    let before = tokens_with("old", &[]);
    let issued = before.new_refresh();
    let issue = issue();
    let value = before.refresh_value(&issued, issue);
    let rotated = tokens_with("new", &["old"]);
    assert_eq!(rotated.read_refresh(value.expose()).issued_in, Some(issue));
    assert_eq!(rotated.read_refresh(value.expose()).hash, issued.hash);
    // Found by its secret, so dropping the key logs nobody out; it proves nothing more.
    let dropped = tokens_with("new", &[]);
    assert_eq!(
        dropped.read_refresh(value.expose()),
        PresentedRefresh::from(issued.hash)
    );
}

#[test]
fn a_refresh_token_of_the_earlier_format_is_read_as_the_sha256_of_its_text() {
    let legacy = crate::random::random_url_token(32);
    let read = tokens().read_refresh(&legacy);
    assert_eq!(read.issued_in, None);
    let expected: [u8; 32] = Sha256::digest(legacy.as_bytes()).into();
    assert_eq!(read.hash, RefreshTokenHash(expected));
}

#[test]
fn the_refresh_ttl_is_the_configured_one() {
    assert_eq!(tokens().refresh_ttl(), Duration::days(30));
}

#[test]
fn debug_output_shows_no_key_material() {
    let debug = format!("{:?}", tokens_with("current", &["old"]));
    assert!(debug.contains(&current_kid()));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("current"));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("old"));
}

#[test]
fn a_token_checked_once_still_expires_and_a_tampered_copy_is_checked_anew() {
    let (tokens, _, issued) = a_new_users_token();
    let token = issued.value.expose();
    assert!(tokens.verify_access(token, now()).is_some());
    assert!(tokens.verify_access(token, now()).is_some(), "remembered");
    let expiry = now() + Duration::minutes(15);
    assert_eq!(tokens.verify_access(token, expiry), None, "still expires");
    // Another token (one character changed) is another digest: verified, and refused.
    let mut tampered = token.to_owned();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    assert_eq!(tokens.verify_access(&tampered, now()), None);
}

/// An access token of `user` issued [`now`], at a login [`now`], in a new session.
fn issued_now(tokens: &JwtSessionTokens, user: UserId) -> social_login_ports::AccessToken {
    tokens.issue_access(new_session(user), now()).unwrap()
}

/// The test key's tokens, a new user and an access token they issued that user [`now`].
fn a_new_users_token() -> (JwtSessionTokens, UserId, social_login_ports::AccessToken) {
    let tokens = tokens();
    let user = UserId::new();
    let issued = issued_now(&tokens, user);
    (tokens, user, issued)
}

/// `user` in a new session whose login happened [`now`].
fn new_session(user: UserId) -> AccessIssue {
    AccessIssue {
        user,
        session: FamilyId::new(),
        auth_time: now(),
    }
}
