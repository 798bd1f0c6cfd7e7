//! Apple's notifications: the events claim as a string or an object, event_time in seconds
//! or milliseconds, every type, the bundle id as audience; and every forgery refused.

use crate::bench::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;
use social_login_domain::SignalKind;
use social_login_ports::{RefusalReason, SignalVerifier};
use social_login_provider_signals::MAX_SIGNAL_BYTES;
use social_login_simulator::signing::UNKNOWN_KID;
use social_login_simulator::{TEST_KEY_A, TEST_KEY_B};
use time::OffsetDateTime;

const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";

#[tokio::test]
async fn a_consent_revoked_notification_with_its_events_as_a_string_is_read() {
    let bench = bench().await;
    let event = json!({"type": "consent-revoked", "sub": SUB, "event_time": 1_611_765_847_700_i64});
    let signal = bench.apple(&bench.apple_claims(event)).await.unwrap();
    assert_eq!(signal.kind, SignalKind::ConsentRevoked);
    assert_eq!(signal.subject.unwrap().as_str(), SUB);
    assert_eq!(signal.id.as_str(), "a1b2c3d4-apple");
    assert_eq!(
        signal.occurred_at,
        OffsetDateTime::from_unix_timestamp(1_611_765_847).unwrap(),
        "event_time in milliseconds"
    );
}

#[tokio::test]
async fn the_events_claim_may_be_an_object_and_event_time_seconds_or_a_string() {
    let bench = bench().await;
    for event_time in [json!(1_611_765_847), json!("1611765847700")] {
        let mut claims = bench.apple_claims(json!({}));
        claims["events"] = json!({"type": "email-disabled", "sub": SUB, "event_time": event_time,
            "email": "x7k2@privaterelay.appleid.com", "is_private_email": "true"});
        let signal = bench.apple(&claims).await.unwrap();
        assert_eq!(signal.kind, SignalKind::EmailForwardingChanged);
        assert_eq!(signal.occurred_at.unix_timestamp(), 1_611_765_847);
    }
}

#[tokio::test]
async fn each_apple_type_is_read_as_its_kind_and_unknown_types_as_other() {
    let bench = bench().await;
    for (kind, expected) in [
        ("consent-revoked", SignalKind::ConsentRevoked),
        ("account-delete", SignalKind::AccountDeleted),
        ("account-deleted", SignalKind::AccountDeleted),
        ("email-disabled", SignalKind::EmailForwardingChanged),
        ("email-enabled", SignalKind::EmailForwardingChanged),
        ("something-new", SignalKind::Other),
    ] {
        let claims = bench.apple_claims(json!({"type": kind, "sub": SUB}));
        let signal = bench.apple(&claims).await.unwrap();
        assert_eq!(signal.kind, expected, "{kind}");
        assert_eq!(
            signal.occurred_at, signal.issued_at,
            "{kind}: no event_time, the iat"
        );
    }
}

#[tokio::test]
async fn the_services_id_and_the_bundle_id_are_audiences_and_nothing_else_is() {
    let bench = bench().await;
    let event = json!({"type": "consent-revoked", "sub": SUB});
    for audience in [
        json!(SERVICES_ID),
        json!(BUNDLE_ID),
        json!(["other", BUNDLE_ID]),
    ] {
        let mut claims = bench.apple_claims(event.clone());
        claims["aud"] = audience;
        assert!(bench.apple(&claims).await.is_ok());
    }
    for audience in [json!("com.example.other"), json!([]), json!(null), json!(7)] {
        let mut claims = bench.apple_claims(event.clone());
        claims["aud"] = audience.clone();
        assert_eq!(
            bench.apple(&claims).await.unwrap_err(),
            RefusalReason::InvalidAudience,
            "{audience}"
        );
    }
}

#[tokio::test]
async fn another_issuer_is_an_invalid_issuer() {
    let bench = bench().await;
    for issuer in [
        json!("https://account.apple.com"),
        json!("https://accounts.google.com"),
        json!(null),
    ] {
        let mut claims = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
        claims["iss"] = issuer;
        assert_eq!(
            bench.apple(&claims).await.unwrap_err(),
            RefusalReason::InvalidIssuer
        );
    }
}

#[tokio::test]
async fn an_expiry_at_the_end_of_time_is_read_as_a_time_far_off() {
    let bench = bench().await;
    let mut claims = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
    // 9999-12-31T23:58:20Z: the last minutes a time can hold, then the leeway.
    claims["exp"] = json!(253_402_300_700_i64);
    assert!(bench.apple(&claims).await.is_ok());
}

#[tokio::test]
async fn a_wrong_key_an_unknown_kid_or_another_algorithm_is_an_invalid_key() {
    let bench = bench().await;
    let claims = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
    let by_other_key = TEST_KEY_B.sign(TEST_KEY_A.kid, &claims);
    let unknown_kid = TEST_KEY_A.sign(UNKNOWN_KID, &claims);
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(TEST_KEY_A.kid.to_owned());
    let secret = EncodingKey::from_secret(TEST_KEY_A.public_pem.as_bytes());
    let confused = jsonwebtoken::encode(&header, &claims, &secret).unwrap();
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(json!({"alg": "none", "kid": TEST_KEY_A.kid}).to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    for token in [by_other_key, unknown_kid, confused, none] {
        let refused = refusal(bench.apple.verify(&token).await.unwrap_err());
        assert_eq!(
            refused.reason,
            RefusalReason::InvalidKey,
            "{}",
            refused.detail
        );
    }
}

#[tokio::test]
async fn truncated_oversized_expired_or_incomplete_notifications_are_invalid_requests() {
    let bench = bench().await;
    let good = signed(&bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB})));
    let truncated = &good[..good.rfind('.').unwrap()];
    let oversized = format!("{good}{}", "A".repeat(MAX_SIGNAL_BYTES));
    for token in [truncated, oversized.as_str(), ""] {
        let refused = refusal(bench.apple.verify(token).await.unwrap_err());
        assert_eq!(
            refused.reason,
            RefusalReason::InvalidRequest,
            "{}",
            refused.detail
        );
    }
    let mut expired = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
    expired["exp"] = json!(bench.now() - 3600);
    let mut no_jti = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
    no_jti.as_object_mut().unwrap().remove("jti");
    let mut stale = bench.apple_claims(json!({"type": "consent-revoked", "sub": SUB}));
    stale["iat"] = json!(bench.now() - 31 * 86_400);
    stale["exp"] = json!(bench.now() + 3600);
    let no_sub = bench.apple_claims(json!({"type": "consent-revoked"}));
    let no_type = bench.apple_claims(json!({"sub": SUB}));
    let mut not_json = bench.apple_claims(json!({}));
    not_json["events"] = json!("{not json");
    for claims in [expired, no_jti, stale, no_sub, no_type, not_json] {
        assert_eq!(
            bench.apple(&claims).await.unwrap_err(),
            RefusalReason::InvalidRequest,
            "{claims}"
        );
    }
}
