//! The parts of the JWS check that need no key: the header's shape and algorithm, issuers
//! with and without their trailing slash, audiences, NumericDates; and a property: any
//! header that is not an RS256 JSON object is refused before a key is looked up.

use super::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;
use social_login_provider_core::json_strategies::{body_bytes, json_value_with_keys};

fn with_header(header: &Value) -> String {
    format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode(header.to_string()))
}

fn reason(result: Result<Option<String>, SignalRefused>) -> RefusalReason {
    result.expect_err("refused").reason
}

#[test]
fn an_rs256_header_gives_its_kid() {
    let token = with_header(&json!({"alg": "RS256", "kid": "k1", "typ": "JWT"}));
    assert_eq!(read_header(&token), Ok(Some("k1".to_owned())));
    let token = with_header(&json!({"alg": "RS256"}));
    assert_eq!(read_header(&token), Ok(None));
}

#[test]
fn any_other_algorithm_is_an_invalid_key_and_a_broken_header_an_invalid_request() {
    for alg in [
        json!("none"),
        json!("HS256"),
        json!("ES256"),
        json!("rs256"),
        json!(null),
    ] {
        let token = with_header(&json!({"alg": alg, "kid": "k1"}));
        assert_eq!(
            reason(read_header(&token)),
            RefusalReason::InvalidKey,
            "{alg}"
        );
    }
    let positional = with_header(&json!(["RS256", "k1"]));
    let kid_number = with_header(&json!({"alg": "RS256", "kid": 7}));
    for token in [
        "",
        "a.b",
        "a.b.c.d",
        "!!!.e30.c2ln",
        &positional,
        &kid_number,
    ] {
        assert_eq!(
            reason(read_header(token)),
            RefusalReason::InvalidRequest,
            "{token}"
        );
    }
}

#[test]
fn issuers_match_with_or_without_one_trailing_slash() {
    let google = "https://accounts.google.com/";
    assert!(same_issuer("https://accounts.google.com/", google));
    assert!(same_issuer("https://accounts.google.com", google));
    assert!(!same_issuer("https://accounts.google.com.evil/", google));
    assert!(!same_issuer("", ""));
    assert!(same_issuer(
        "https://appleid.apple.com",
        "https://appleid.apple.com"
    ));
}

#[test]
fn an_audience_is_a_string_or_an_array_of_them() {
    let one = json!("com.example.app");
    assert_eq!(
        audiences(Some(&one)).collect::<Vec<_>>(),
        ["com.example.app"]
    );
    let many = json!(["a", 7, "b"]);
    assert_eq!(audiences(Some(&many)).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(audiences(Some(&json!({"aud": "a"}))).count(), 0);
    assert_eq!(audiences(None).count(), 0);
}

#[test]
fn a_numeric_date_is_whole_or_fractional_seconds() {
    let at = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    assert_eq!(seconds(&json!(1_800_000_000)), Some(at));
    assert_eq!(seconds(&json!(1_800_000_000.7)), Some(at));
    assert_eq!(seconds(&json!("1800000000")), None);
    assert_eq!(seconds(&json!(1e300)), None);
}

#[test]
fn no_header_but_an_rs256_object_passes_and_none_panics() {
    let headers = prop_oneof![
        body_bytes(json!({"alg": "RS256", "kid": "k1"})),
        json_value_with_keys(&["alg", "kid", "typ"]).prop_map(|v| v.to_string().into_bytes()),
    ];
    TestRunner::new(Config::with_cases(256))
        .run(&headers, |header| {
            let token = format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode(&header));
            if read_header(&token).is_ok() {
                let value: Value = serde_json::from_slice(&header).unwrap();
                prop_assert_eq!(value["alg"].as_str(), Some("RS256"));
            }
            Ok(())
        })
        .unwrap();
}
