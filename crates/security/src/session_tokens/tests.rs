//! Tests of `JwtSessionTokens`: access-token checks, forged algorithms, rotation, refresh.

use super::*;
use crate::keys::{derive_key, key_id};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

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

/// A token with the given raw header, our valid claims for `user`, and an HMAC signature
/// made with `alg` under the real access key: only the algorithm check can refuse it.
fn forged(user: UserId, header: &str, alg: Option<Algorithm>) -> String {
    forged_with(user, header, alg, |_| {})
}

/// [`forged`] with claims changed by `patch`.
fn forged_with(
    user: UserId,
    header: &str,
    alg: Option<Algorithm>,
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
    let signature = match alg {
        Some(alg) => {
            let key =
                EncodingKey::from_secret(&derive_key(&secret("current"), Purpose::AccessToken));
            jsonwebtoken::crypto::sign(message.as_bytes(), &key, alg).unwrap()
        }
        None => String::new(),
    };
    format!("{message}.{signature}")
}

#[test]
fn an_issued_access_token_verifies_to_its_user() {
    let tokens = tokens();
    let user = UserId::new();
    let issued = tokens.issue_access(user, now()).unwrap();
    assert_eq!(issued.expires_at, now() + Duration::minutes(15));
    assert_eq!(
        tokens.verify_access(issued.value.expose(), now()),
        Some(user)
    );
}

#[test]
fn the_token_carries_the_documented_header_and_claims() {
    let issued = tokens().issue_access(UserId::new(), now()).unwrap();
    let header = jsonwebtoken::decode_header(issued.value.expose()).unwrap();
    assert_eq!(header.alg, Algorithm::HS256);
    assert_eq!(
        header.kid.as_deref(),
        Some(key_id(&secret("current")).as_str())
    );
    let payload = issued.value.expose().split('.').nth(1).unwrap();
    let claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    assert_eq!(claims["iss"], "social-login");
    assert_eq!(claims["token_use"], "access");
    assert_eq!(claims["iat"], now().unix_timestamp());
    assert!(claims["jti"].as_str().is_some_and(|jti| jti.len() >= 20));
}

#[test]
fn each_token_gets_its_own_id() {
    let tokens = tokens();
    let user = UserId::new();
    let first = tokens.issue_access(user, now()).unwrap();
    let second = tokens.issue_access(user, now()).unwrap();
    assert_ne!(first.value, second.value);
}

#[test]
fn a_token_is_refused_from_its_expiry_on() {
    let tokens = tokens();
    let user = UserId::new();
    let issued = tokens.issue_access(user, now()).unwrap();
    let token = issued.value.expose();
    let last_valid = issued.expires_at - Duration::seconds(1);
    assert_eq!(tokens.verify_access(token, last_valid), Some(user));
    assert_eq!(tokens.verify_access(token, issued.expires_at), None);
    assert_eq!(tokens.verify_access(token, now() + Duration::days(1)), None);
}

#[test]
fn a_token_signed_with_another_secret_is_refused() {
    let user = UserId::new();
    let theirs = tokens_with("theirs", &[])
        .issue_access(user, now())
        .unwrap();
    assert_eq!(tokens().verify_access(theirs.value.expose(), now()), None);
}

#[test]
fn a_token_signed_under_a_previous_key_verifies_after_rotation() {
    let user = UserId::new();
    let before = tokens_with("old", &[]).issue_access(user, now()).unwrap();
    let rotated = tokens_with("new", &["old"]);
    assert_eq!(
        rotated.verify_access(before.value.expose(), now()),
        Some(user)
    );

    let after = rotated.issue_access(user, now()).unwrap();
    let kid = jsonwebtoken::decode_header(after.value.expose())
        .unwrap()
        .kid;
    assert_eq!(kid.as_deref(), Some(key_id(&secret("new")).as_str()));
    // Dropping the old key from the configuration ends its tokens.
    assert_eq!(
        tokens_with("new", &[]).verify_access(before.value.expose(), now()),
        None
    );
}

#[test]
fn the_control_forgery_with_hs256_is_accepted() {
    // Guards the forgery tests below: the same construction with HS256 does verify, so
    // their refusal is due to the algorithm alone.
    let user = UserId::new();
    let kid = key_id(&secret("current"));
    let header = format!(r#"{{"alg":"HS256","typ":"JWT","kid":"{kid}"}}"#);
    let token = forged(user, &header, Some(Algorithm::HS256));
    assert_eq!(tokens().verify_access(&token, now()), Some(user));
}

#[test]
fn an_unsigned_alg_none_token_is_refused() {
    let kid = key_id(&secret("current"));
    for alg in ["none", "None", "NONE"] {
        let header = format!(r#"{{"alg":"{alg}","typ":"JWT","kid":"{kid}"}}"#);
        let token = forged(UserId::new(), &header, None);
        assert_eq!(tokens().verify_access(&token, now()), None, "alg {alg}");
    }
}

#[test]
fn tokens_headed_with_other_algorithms_are_refused() {
    let kid = key_id(&secret("current"));
    for (name, alg) in [
        ("HS512", Algorithm::HS512),
        ("HS384", Algorithm::HS384),
        ("RS256", Algorithm::HS256),
        ("ES256", Algorithm::HS256),
    ] {
        let header = format!(r#"{{"alg":"{name}","typ":"JWT","kid":"{kid}"}}"#);
        let token = forged(UserId::new(), &header, Some(alg));
        assert_eq!(tokens().verify_access(&token, now()), None, "alg {name}");
    }
}

#[test]
fn a_tampered_payload_is_refused() {
    let tokens = tokens();
    let issued = tokens.issue_access(UserId::new(), now()).unwrap();
    let parts: Vec<&str> = issued.value.expose().split('.').collect();
    let mut claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
    let victim = UserId::new();
    claims["sub"] = victim.to_string().into();
    let token = format!(
        "{}.{}.{}",
        parts[0],
        b64(claims.to_string().as_bytes()),
        parts[2]
    );
    assert_eq!(tokens.verify_access(&token, now()), None);
}

#[test]
fn tokens_without_kid_with_an_unknown_kid_or_malformed_are_refused() {
    let user = UserId::new();
    let no_kid = forged(
        user,
        r#"{"alg":"HS256","typ":"JWT"}"#,
        Some(Algorithm::HS256),
    );
    let unknown = forged(
        user,
        r#"{"alg":"HS256","typ":"JWT","kid":"00000000"}"#,
        Some(Algorithm::HS256),
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
fn validly_signed_tokens_of_another_kind_or_issuer_are_refused() {
    let header = format!(
        r#"{{"alg":"HS256","typ":"JWT","kid":"{}"}}"#,
        key_id(&secret("current"))
    );
    let patches: [fn(&mut serde_json::Value); 5] = [
        |c| c["token_use"] = "refresh".into(),
        |c| c["iss"] = "someone-else".into(),
        |c| c["sub"] = "not-a-uuid".into(),
        |c| _ = c.as_object_mut().unwrap().remove("exp"),
        |c| _ = c.as_object_mut().unwrap().remove("token_use"),
    ];
    for (i, patch) in patches.into_iter().enumerate() {
        let token = forged_with(UserId::new(), &header, Some(Algorithm::HS256), patch);
        assert_eq!(tokens().verify_access(&token, now()), None, "patch {i}");
    }
}

#[test]
fn a_refresh_token_is_32_random_bytes_stored_only_as_its_sha256() {
    let tokens = tokens();
    let issued = tokens.new_refresh();
    assert_eq!(
        URL_SAFE_NO_PAD.decode(issued.value.expose()).unwrap().len(),
        32
    );
    assert_eq!(issued.hash, tokens.hash_refresh(issued.value.expose()));
    let expected: [u8; 32] = Sha256::digest(issued.value.expose().as_bytes()).into();
    assert_eq!(issued.hash, RefreshTokenHash(expected));
    let other = tokens.new_refresh();
    assert_ne!(issued.value, other.value);
    assert_ne!(issued.hash, other.hash);
}

#[test]
fn the_refresh_ttl_is_the_configured_one() {
    assert_eq!(tokens().refresh_ttl(), Duration::days(30));
}

#[test]
fn debug_output_shows_no_key_material() {
    let debug = format!("{:?}", tokens_with("current", &["old"]));
    assert!(debug.contains(key_id(&secret("current")).as_str()));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("current"));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("old"));
}
