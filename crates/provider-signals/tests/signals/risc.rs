//! Google's Security Event Tokens: every event type, the subject (iss-sub, or of another
//! issuer), no `exp` needed, one event per token; and every forgery refused with the RFC 8935
//! reason it answers.

use crate::bench::*;
use serde_json::{Value, json};
use social_login_domain::SignalKind;
use social_login_ports::{RefusalReason, SignalError, SignalVerifier};
use social_login_provider_core::build_http_client;
use social_login_provider_signals::{
    GoogleRiscVerifier, JwsSignalSettings, RISC_EVENT_TYPES, VERIFICATION,
};
use social_login_simulator::signing::UNKNOWN_KID;
use social_login_simulator::{TEST_KEY_A, TEST_KEY_B};

const SESSIONS_REVOKED: &str =
    "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked";

#[tokio::test]
async fn each_risc_event_type_is_read_as_its_kind_with_its_subject() {
    let bench = bench().await;
    for (uri, kind) in RISC_EVENT_TYPES
        .into_iter()
        .filter(|(uri, _)| *uri != VERIFICATION)
    {
        let signal = bench
            .risc(&bench.risc_claims(uri, google_subject("110248")))
            .await
            .unwrap();
        assert_eq!(signal.kind, kind, "{uri}");
        assert_eq!(signal.subject.unwrap().as_str(), "110248");
        assert_eq!(signal.id.as_str(), "set-1");
        assert_eq!(signal.occurred_at, signal.issued_at);
    }
    let unknown = "https://schemas.openid.net/secevent/risc/event-type/identifier-changed";
    let signal = bench
        .risc(&bench.risc_claims(unknown, google_subject("110248")))
        .await
        .unwrap();
    assert_eq!(signal.kind, SignalKind::Other);
}

#[tokio::test]
async fn a_verification_event_names_no_account() {
    let bench = bench().await;
    let signal = bench
        .risc(&bench.risc_claims(VERIFICATION, json!({"state": "abc"})))
        .await
        .unwrap();
    assert_eq!((signal.kind, signal.subject), (SignalKind::Other, None));
}

#[tokio::test]
async fn a_subject_may_be_sub_or_id_without_its_issuer_and_one_of_another_issuer_names_nobody() {
    let bench = bench().await;
    for subject in [
        json!({"subject": {"sub": "110248"}}),
        json!({"subject": {"subject_type": "id", "id": "110248"}}),
    ] {
        let signal = bench
            .risc(&bench.risc_claims(SESSIONS_REVOKED, subject))
            .await
            .unwrap();
        assert_eq!(signal.subject.unwrap().as_str(), "110248");
    }
    let configured = json!({"subject": {"subject_type": "iss-sub", "iss": CONFIGURED_GOOGLE_ISSUER, "sub": "110248"}});
    let signal = bench
        .risc(&bench.risc_claims(SESSIONS_REVOKED, configured))
        .await
        .unwrap();
    assert_eq!(
        signal.subject.unwrap().as_str(),
        "110248",
        "the google provider's configured issuer names its accounts"
    );
    let foreign = json!({"subject": {"subject_type": "iss-sub", "iss": "https://idp.example.com/", "sub": "110248"}});
    let signal = bench
        .risc(&bench.risc_claims(SESSIONS_REVOKED, foreign))
        .await
        .unwrap();
    assert_eq!(signal.subject, None);
    for broken in [
        json!({}),
        json!({"subject": "110248"}),
        json!({"subject": {"subject_type": "email", "email": "a@b.c"}}),
    ] {
        assert_eq!(
            bench
                .risc(&bench.risc_claims(SESSIONS_REVOKED, broken))
                .await
                .unwrap_err(),
            RefusalReason::InvalidRequest
        );
    }
}

#[tokio::test]
async fn a_set_has_no_exp_and_may_be_days_old() {
    let bench = bench().await;
    let mut claims = bench.risc_claims(SESSIONS_REVOKED, google_subject("110248"));
    claims["iat"] = json!(bench.now() - 20 * 86_400);
    assert!(
        bench.risc(&claims).await.is_ok(),
        "a retry of a SET from 20 days ago"
    );
    claims["iat"] = json!(bench.now() - 31 * 86_400);
    assert_eq!(
        bench.risc(&claims).await.unwrap_err(),
        RefusalReason::InvalidRequest,
        "past the receipts' window"
    );
}

/// A change that forges a valid SET's claims.
type Forge = fn(&mut Value);

#[tokio::test]
async fn forged_sets_are_refused_with_the_rfc_8935_reason() {
    let bench = bench().await;
    let claims = bench.risc_claims(SESSIONS_REVOKED, google_subject("110248"));
    let by_other_key = TEST_KEY_B.sign(TEST_KEY_A.kid, &claims);
    assert_eq!(
        refusal(bench.risc.verify(&by_other_key).await.unwrap_err()).reason,
        RefusalReason::InvalidKey
    );
    let forgeries: [(&str, Forge, RefusalReason); 4] = [
        (
            "another issuer",
            |set| set["iss"] = json!("https://appleid.apple.com"),
            RefusalReason::InvalidIssuer,
        ),
        (
            "another app",
            |set| set["aud"] = json!("someone-else.apps.googleusercontent.com"),
            RefusalReason::InvalidAudience,
        ),
        (
            "two events",
            |set| set["events"][VERIFICATION] = json!({"state": "x"}),
            RefusalReason::InvalidRequest,
        ),
        (
            "no event",
            |set| set["events"] = json!({}),
            RefusalReason::InvalidRequest,
        ),
    ];
    for (forgery, forge, reason) in forgeries {
        let mut forged = claims.clone();
        forge(&mut forged);
        assert_eq!(bench.risc(&forged).await.unwrap_err(), reason, "{forgery}");
    }
    let mut android = claims.clone();
    android["aud"] = json!(ANDROID_CLIENT);
    assert!(bench.risc(&android).await.is_ok(), "client_ids count");
    let token = signed(&claims);
    let truncated = &token[..token.len() / 2];
    assert_eq!(
        refusal(bench.risc.verify(truncated).await.unwrap_err()).reason,
        RefusalReason::InvalidRequest
    );
    assert!(
        bench.risc.verify(&format!("{token}\r\n")).await.is_ok(),
        "a trailing newline is no change"
    );
}

#[tokio::test]
async fn a_key_set_that_cannot_be_fetched_is_no_refusal_of_the_signal() {
    let bench = bench().await;
    let unreachable = GoogleRiscVerifier::new(
        JwsSignalSettings {
            // Port 1 of loopback: nothing listens.
            jwks: url::Url::parse("http://127.0.0.1:1/risc-jwks").unwrap(),
            issuer: RISC_ISSUER.to_owned(),
            audiences: vec![GOOGLE_CLIENT.to_owned()],
        },
        Some(CONFIGURED_GOOGLE_ISSUER),
        &build_http_client(std::time::Duration::from_secs(2)).unwrap(),
        bench.clock.clone(),
    );
    let claims = bench.risc_claims(SESSIONS_REVOKED, google_subject("110248"));
    let unchecked = unreachable.verify(&signed(&claims)).await.unwrap_err();
    assert!(
        matches!(unchecked, SignalError::KeysUnavailable(_)),
        "{unchecked}"
    );
    // A reachable set without the token's key is the signal's fault.
    let by_unknown_key = TEST_KEY_A.sign(UNKNOWN_KID, &claims);
    let refused = refusal(bench.risc.verify(&by_unknown_key).await.unwrap_err());
    assert_eq!(refused.reason, RefusalReason::InvalidKey);
}
