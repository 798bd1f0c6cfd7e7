//! The JWS parsers on anything: properly signed tokens whose claims are any JSON (real
//! claims mutated: fields removed, retyped, oversized, nested deep, truncated), and strings
//! no key signed. Nothing panics; a signal is read only from a token signed with the
//! published key whose claims pass every check.

use crate::bench::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use social_login_ports::SignalVerifier;
use social_login_provider_core::json_strategies::body_bytes;
use social_login_simulator::TEST_KEY_A;

/// Signs `payload` as it is (any bytes), RS256 under key A's `kid`.
fn signed_payload(payload: &[u8]) -> String {
    TEST_KEY_A.sign_bytes(&json!({"alg": "RS256", "kid": TEST_KEY_A.kid}), payload)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Signs claims of any shape, mutations of `valid`, and checks each token the verifier
/// `verifier` picks reads: its raw claims name `issuer` and the signal's id, and `hold`.
fn read_only_when_every_check_holds<V: SignalVerifier>(
    valid: impl FnOnce(&Bench) -> Value,
    verifier: impl Fn(&Bench) -> &V,
    issuer: &str,
    hold: impl Fn(&Value) -> Result<(), TestCaseError>,
) {
    let runtime = runtime();
    let bench = runtime.block_on(bench());
    TestRunner::new(Config::with_cases(128))
        .run(&body_bytes(valid(&bench)), |payload| {
            let token = signed_payload(&payload);
            if let Ok(signal) = runtime.block_on(verifier(&bench).verify(&token)) {
                let raw: Value = serde_json::from_slice(&payload).unwrap();
                prop_assert_eq!(raw["iss"].as_str(), Some(issuer));
                prop_assert_eq!(raw["jti"].as_str(), Some(signal.id.as_str()));
                hold(&raw)?;
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_signed_apple_notification_of_any_shape_is_read_only_when_every_check_holds() {
    read_only_when_every_check_holds(
        |bench| bench.apple_claims(json!({"type": "consent-revoked", "sub": "001.abc.1"})),
        |bench| &bench.apple,
        APPLE_ISSUER,
        |raw| {
            let audience = raw["aud"].to_string();
            prop_assert!(audience.contains(BUNDLE_ID) || audience.contains(SERVICES_ID));
            Ok(())
        },
    );
}

#[test]
fn a_signed_set_of_any_shape_is_read_only_when_every_check_holds() {
    let uri = "https://schemas.openid.net/secevent/risc/event-type/account-disabled";
    read_only_when_every_check_holds(
        |bench| bench.risc_claims(uri, google_subject("110248")),
        |bench| &bench.risc,
        RISC_ISSUER,
        |raw| {
            let events = raw["events"].as_object().map(|events| events.len());
            prop_assert_eq!(events, Some(1));
            Ok(())
        },
    );
}

#[test]
fn no_string_the_published_key_did_not_sign_is_ever_read() {
    let runtime = runtime();
    let bench = runtime.block_on(bench());
    let valid = signed(&bench.apple_claims(json!({"type": "consent-revoked", "sub": "s"})));
    let (message, _) = valid.rsplit_once('.').unwrap();
    let strings = prop_oneof![
        any::<String>(),
        "[A-Za-z0-9_-]{0,40}\\.[A-Za-z0-9_-]{0,80}\\.[A-Za-z0-9_-]{0,80}",
        // The signed part with any signature but its own.
        "[A-Za-z0-9_-]{0,400}".prop_map(move |signature| format!("{message}.{signature}")),
    ];
    TestRunner::new(Config::with_cases(128))
        .run(&strings, |token| {
            prop_assert!(runtime.block_on(bench.apple.verify(&token)).is_err());
            prop_assert!(runtime.block_on(bench.risc.verify(&token)).is_err());
            Ok(())
        })
        .unwrap();
}
