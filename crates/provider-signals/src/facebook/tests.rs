//! Meta's `signed_request`: the signature over the encoded payload, padding either way,
//! HMAC-SHA256 only, the fields read, the confirmation code; and properties: nothing panics,
//! nothing unsigned or altered is accepted.

use super::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;
use social_login_conformance::ManualClock;
use social_login_provider_core::json_strategies::{body_bytes, text};

const SECRET: &str = "facebook-app-secret";

/// `payload` signed as Meta signs: base64url without padding, HMAC over the encoded text.
fn sign_bytes(payload: &[u8], secret: &str) -> String {
    let encoded = URL_SAFE_NO_PAD.encode(payload);
    let mut mac = hmac(secret.as_bytes());
    mac.update(encoded.as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    format!("{signature}.{encoded}")
}

fn signed(payload: &Value) -> String {
    sign_bytes(payload.to_string().as_bytes(), SECRET)
}

fn payload(now: i64) -> Value {
    json!({"algorithm": "HMAC-SHA256", "issued_at": now, "expires": now + 3600, "user_id": "10158"})
}

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

fn reason(result: Result<SignedRequest, SignalRefused>) -> RefusalReason {
    result.expect_err("refused").reason
}

#[test]
fn a_request_signed_with_the_app_secret_is_read() {
    let request = parse_signed_request(&signed(&payload(now())), SECRET.as_bytes()).unwrap();
    assert_eq!(request.payload["user_id"], "10158");
}

#[test]
fn padding_on_either_part_changes_nothing_but_the_hmac_covers_the_payload_as_sent() {
    let plain = signed(&payload(now()));
    let (signature, encoded) = plain.split_once('.').unwrap();
    // Meta has appended `=` to the signature.
    let padded_signature = format!("{signature}=.{encoded}");
    assert!(parse_signed_request(&padded_signature, SECRET.as_bytes()).is_ok());
    // A payload sent padded is signed padded.
    let padded = format!("{encoded}==");
    let mut mac = hmac(SECRET.as_bytes());
    mac.update(padded.as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    assert!(parse_signed_request(&format!("{signature}.{padded}"), SECRET.as_bytes()).is_ok());
    // The same signature on the padded payload is not the HMAC of what was sent.
    let (original_signature, _) = plain.split_once('.').unwrap();
    let moved = format!("{original_signature}.{padded}");
    assert_eq!(
        reason(parse_signed_request(&moved, SECRET.as_bytes())),
        RefusalReason::InvalidKey
    );
}

#[test]
fn an_hmac_over_the_decoded_json_is_not_the_signature() {
    let json = payload(now()).to_string();
    let mut mac = hmac(SECRET.as_bytes());
    mac.update(json.as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    let request = format!("{signature}.{}", URL_SAFE_NO_PAD.encode(&json));
    assert_eq!(
        reason(parse_signed_request(&request, SECRET.as_bytes())),
        RefusalReason::InvalidKey
    );
}

#[test]
fn another_secret_or_an_altered_payload_is_refused() {
    let good = signed(&payload(now()));
    assert_eq!(
        reason(parse_signed_request(&good, b"another-secret")),
        RefusalReason::InvalidKey
    );
    let (signature, _) = good.split_once('.').unwrap();
    let mut altered = payload(now());
    altered["user_id"] = json!("666");
    let swapped = format!(
        "{signature}.{}",
        URL_SAFE_NO_PAD.encode(altered.to_string())
    );
    assert_eq!(
        reason(parse_signed_request(&swapped, SECRET.as_bytes())),
        RefusalReason::InvalidKey
    );
}

#[test]
fn only_hmac_sha256_is_accepted_whatever_its_case() {
    for algorithm in ["hmac-sha256", "HMAC-SHA256"] {
        let mut fields = payload(now());
        fields["algorithm"] = json!(algorithm);
        assert!(parse_signed_request(&signed(&fields), SECRET.as_bytes()).is_ok());
    }
    for algorithm in [json!("HMAC-SHA1"), json!("none"), json!(null), json!(256)] {
        let mut fields = payload(now());
        fields["algorithm"] = algorithm;
        assert_eq!(
            reason(parse_signed_request(&signed(&fields), SECRET.as_bytes())),
            RefusalReason::InvalidRequest
        );
    }
    let mut fields = payload(now());
    fields.as_object_mut().unwrap().remove("algorithm");
    assert_eq!(
        reason(parse_signed_request(&signed(&fields), SECRET.as_bytes())),
        RefusalReason::InvalidRequest
    );
}

#[test]
fn malformed_requests_are_refused_as_invalid_requests() {
    let good = signed(&payload(now()));
    let oversized = format!("{good}{}", "A".repeat(MAX_SIGNAL_BYTES));
    for bad in ["", "no-dot", "!!!.e30", oversized.as_str()] {
        assert_eq!(
            reason(parse_signed_request(bad, SECRET.as_bytes())),
            RefusalReason::InvalidRequest,
            "{bad:.20}"
        );
    }
    // Signed, but not a JSON object.
    for body in [&b"[1,2]"[..], b"not json", b""] {
        let request = sign_bytes(body, SECRET);
        assert_eq!(
            reason(parse_signed_request(&request, SECRET.as_bytes())),
            RefusalReason::InvalidRequest
        );
    }
}

fn verifier(source: SignalSource) -> FacebookSignalVerifier {
    let secret = SecretText::new(SECRET);
    let clock = ManualClock::starting_now();
    match source {
        SignalSource::FacebookDataDeletion => FacebookSignalVerifier::data_deletion(secret, clock),
        _ => FacebookSignalVerifier::deauthorize(secret, clock),
    }
}

#[tokio::test]
async fn a_data_deletion_request_names_its_account_and_gets_a_stable_code() {
    let deletion = verifier(SignalSource::FacebookDataDeletion);
    let request = signed(&payload(now()));
    let signal = deletion.verify(&request).await.unwrap();
    assert_eq!(signal.kind, SignalKind::DataDeletionRequested);
    assert_eq!(
        signal.subject.as_ref().map(ProviderSubject::as_str),
        Some("10158")
    );
    assert_eq!(signal.id.as_str().len(), 2 * CODE_BYTES);
    assert!(signal.id.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
    let again = deletion.verify(&request).await.unwrap();
    assert_eq!(again.id, signal.id, "the same request gets the same code");
    let other = deletion.verify(&signed(&payload(now() - 1))).await.unwrap();
    assert_ne!(other.id, signal.id);
    let deauthorized = verifier(SignalSource::FacebookDeauthorize)
        .verify(&request)
        .await
        .unwrap();
    assert_eq!(deauthorized.kind, SignalKind::ConsentRevoked);
    assert_ne!(deauthorized.id, signal.id, "codes are per callback");
}

#[tokio::test]
async fn a_numeric_user_id_is_read_and_a_missing_one_or_a_stale_request_is_refused() {
    let deletion = verifier(SignalSource::FacebookDataDeletion);
    let mut numeric = payload(now());
    numeric["user_id"] = json!(10158);
    let signal = deletion.verify(&signed(&numeric)).await.unwrap();
    assert_eq!(signal.subject.unwrap().as_str(), "10158");
    let mut anonymous = payload(now());
    anonymous.as_object_mut().unwrap().remove("user_id");
    let stale = payload(now() - 31 * 24 * 3600);
    let mut untimed = payload(now());
    untimed["issued_at"] = json!("yesterday");
    for fields in [anonymous, stale, untimed] {
        let Err(SignalError::Refused(refused)) = deletion.verify(&signed(&fields)).await else {
            panic!("refused");
        };
        assert_eq!(
            refused.reason,
            RefusalReason::InvalidRequest,
            "{}",
            refused.detail
        );
    }
}

#[test]
fn any_string_that_was_not_signed_with_the_secret_is_refused_without_panicking() {
    let signed_elsewhere = (any::<Vec<u8>>(), text())
        .prop_map(|(payload, secret)| sign_bytes(&payload, &format!("x{secret}")));
    let strings = prop_oneof![
        any::<String>(),
        "[A-Za-z0-9_=-]{0,60}\\.[A-Za-z0-9_=-]{0,200}",
        signed_elsewhere,
    ];
    TestRunner::new(Config::with_cases(256))
        .run(&strings, |request| {
            prop_assert!(parse_signed_request(&request, SECRET.as_bytes()).is_err());
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_signed_payload_of_any_shape_is_read_only_when_it_is_an_hmac_sha256_object() {
    let payloads = body_bytes(payload(now()));
    TestRunner::new(Config::with_cases(256))
        .run(&payloads, |bytes| {
            let request = sign_bytes(&bytes, SECRET);
            match parse_signed_request(&request, SECRET.as_bytes()) {
                Ok(read) => {
                    let value: Value = serde_json::from_slice(&bytes).unwrap();
                    prop_assert_eq!(&Value::Object(read.payload), &value);
                    let algorithm = value["algorithm"].as_str().unwrap_or_default();
                    prop_assert!(algorithm.eq_ignore_ascii_case("HMAC-SHA256"));
                }
                Err(refused) => prop_assert_ne!(refused.reason, RefusalReason::InvalidKey),
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn changing_any_character_of_a_signed_request_refuses_it() {
    let request = signed(&payload(now()));
    let positions = 0..request.len();
    let replacements = prop::sample::select(vec!['A', 'z', '0', '-', '_', '.', '=']);
    TestRunner::new(Config::with_cases(256))
        .run(&(positions, replacements), |(position, replacement)| {
            let mut altered: Vec<char> = request.chars().collect();
            if altered[position] == replacement {
                return Ok(());
            }
            altered[position] = replacement;
            let altered: String = altered.into_iter().collect();
            // Only a change to the padding-free signature's last character may be an
            // equivalent encoding (spare bits); it must still name the same 32 bytes.
            if let Ok(read) = parse_signed_request(&altered, SECRET.as_bytes()) {
                let (signature, encoded) = altered.split_once('.').unwrap();
                let original = request.split_once('.').unwrap();
                prop_assert_eq!(encoded, original.1);
                prop_assert_eq!(base64url(signature), base64url(original.0));
                prop_assert_eq!(read.payload["user_id"].as_str(), Some("10158"));
            }
            Ok(())
        })
        .unwrap();
}
