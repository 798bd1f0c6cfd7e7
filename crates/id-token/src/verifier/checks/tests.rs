use super::*;
use serde_json::{Value, json};

const NOW: i64 = 1_767_225_600;

fn claims(value: Value) -> IdTokenClaims {
    serde_json::from_value(value).unwrap()
}

fn message(result: Result<(), ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(message)) => message,
        other => panic!("expected UserInfo, got {other:?}"),
    }
}

#[test]
fn the_issuer_must_be_present_and_listed() {
    let policy = IssuerPolicy::one_of(["https://accounts.google.com"]);
    assert!(
        check_issuer(
            &policy,
            &claims(json!({"iss": "https://accounts.google.com"}))
        )
        .is_ok()
    );
    assert_eq!(
        message(check_issuer(
            &policy,
            &claims(json!({"iss": "https://x.example"}))
        )),
        "id_token issuer is not accepted"
    );
    assert_eq!(
        message(check_issuer(&policy, &claims(json!({})))),
        "id_token has no issuer"
    );
}

#[test]
fn a_key_that_names_its_issuer_signs_only_that_issuers_tokens() {
    let template = "https://login.microsoftonline.com/{tenantid}/v2.0";
    let work = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    let token = |iss: &str, tid: Option<&str>| {
        let mut claims = json!({"iss": iss});
        if let Some(tid) = tid {
            claims["tid"] = json!(tid);
        }
        self::claims(claims)
    };
    let issued = format!("https://login.microsoftonline.com/{work}/v2.0");
    assert!(check_key_issuer(Some(template), &token(&issued, Some(work))).is_ok());
    assert!(
        check_key_issuer(None, &token(&issued, Some(work))).is_ok(),
        "no issuer named"
    );

    // A consumer accounts' key names that tenant: it signs no work tenant's token.
    let consumers = "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0";
    assert_eq!(
        message(check_key_issuer(
            Some(consumers),
            &token(&issued, Some(work))
        )),
        "id_token is signed by a key of another issuer"
    );
    assert!(
        check_key_issuer(Some(template), &token(&issued, None)).is_err(),
        "without a tid the template names no issuer"
    );
    let google = "https://accounts.google.com";
    assert!(check_key_issuer(Some(google), &token(google, None)).is_ok());
    assert!(check_key_issuer(Some(google), &token("https://evil.example", None)).is_err());
}

#[test]
fn the_audience_must_be_this_client_and_azp_must_agree() {
    assert!(check_audience("me", &claims(json!({"aud": "me"}))).is_ok());
    assert!(check_audience("me", &claims(json!({"aud": "me", "azp": "me"}))).is_ok());
    assert!(check_audience("me", &claims(json!({"aud": ["me", "x"], "azp": "me"}))).is_ok());
    assert_eq!(
        message(check_audience("me", &claims(json!({"aud": "other"})))),
        "id_token audience is not this client"
    );
    assert_eq!(
        message(check_audience(
            "me",
            &claims(json!({"aud": "me", "azp": "other"}))
        )),
        "id_token authorized party is not this client"
    );
    assert_eq!(
        message(check_audience("me", &claims(json!({"aud": ["me", "x"]})))),
        "id_token has several audiences and no azp"
    );
    assert!(check_audience("me", &claims(json!({}))).is_err());
}

#[test]
fn expiry_is_checked_with_a_minute_of_leeway() {
    let at = |exp: i64| claims(json!({"exp": exp, "iat": NOW - 3600}));
    assert!(check_times(&at(NOW - 59), NOW).is_ok());
    assert_eq!(
        message(check_times(&at(NOW - 60), NOW)),
        "id_token has expired (exp)"
    );
    assert!(check_times(&at(NOW + 3600), NOW).is_ok());
}

#[test]
fn issue_time_in_the_future_is_tolerated_for_a_minute_only() {
    let issued = |iat: i64| claims(json!({"exp": NOW + 3600, "iat": iat}));
    assert!(check_times(&issued(NOW + 60), NOW).is_ok());
    assert_eq!(
        message(check_times(&issued(NOW + 61), NOW)),
        "id_token is issued in the future (iat)"
    );
    let not_yet = claims(json!({"exp": NOW + 3600, "iat": NOW, "nbf": NOW + 120}));
    assert_eq!(
        message(check_times(&not_yet, NOW)),
        "id_token is not valid yet (nbf)"
    );
}

#[test]
fn exp_and_iat_are_required() {
    assert_eq!(
        message(check_times(&claims(json!({"iat": NOW})), NOW)),
        "id_token has no expiry (exp)"
    );
    assert_eq!(
        message(check_times(&claims(json!({"exp": NOW + 10})), NOW)),
        "id_token has no issue time (iat)"
    );
}

#[test]
fn the_nonce_must_match_exactly() {
    let expected = SecretText::new("n-0S6_WzA2Mj");
    assert!(check_nonce(&expected, &claims(json!({"nonce": "n-0S6_WzA2Mj"}))).is_ok());
    for other in ["n-0S6_WzA2M", "n-0S6_WzA2Mj ", "N-0S6_WZA2MJ", ""] {
        assert_eq!(
            message(check_nonce(&expected, &claims(json!({"nonce": other})))),
            "id_token nonce does not match"
        );
    }
    assert_eq!(
        message(check_nonce(&expected, &claims(json!({})))),
        "id_token has no nonce"
    );
}

#[test]
fn any_listed_client_id_is_an_accepted_audience_and_azp() {
    let allowed = ["web", "com.example.ios", "android"];
    assert!(check_audience_among(&allowed, &claims(json!({"aud": "com.example.ios"}))).is_ok());
    let android = claims(json!({"aud": "web", "azp": "android"}));
    assert!(check_audience_among(&allowed, &android).is_ok());
    assert_eq!(
        message(check_audience_among(
            &allowed,
            &claims(json!({"aud": "other"}))
        )),
        "id_token audience is not this client"
    );
    let foreign_azp = claims(json!({"aud": "web", "azp": "other-app"}));
    assert_eq!(
        message(check_audience_among(&allowed, &foreign_azp)),
        "id_token authorized party is not this client"
    );
    assert_eq!(
        message(check_audience_among(
            &allowed,
            &claims(json!({"aud": ["web", "x"]}))
        )),
        "id_token has several audiences and no azp"
    );
    assert!(check_audience_among(&[], &claims(json!({"aud": "web"}))).is_err());
}

#[test]
fn a_hashed_nonce_is_the_hex_sha256_of_the_raw_one() {
    let raw = SecretText::new("raw-nonce-from-the-app");
    // printf %s raw-nonce-from-the-app | sha256sum
    let hashed = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";
    assert!(check_hashed_nonce(&raw, &claims(json!({"nonce": hashed}))).is_ok());
    assert_eq!(
        message(check_hashed_nonce(
            &raw,
            &claims(json!({"nonce": "raw-nonce-from-the-app"}))
        )),
        "id_token nonce does not match"
    );
    assert_eq!(
        message(check_hashed_nonce(
            &raw,
            &claims(json!({"nonce": hashed.to_uppercase()}))
        )),
        "id_token nonce does not match"
    );
}

#[test]
fn a_presented_token_with_a_nonce_needs_the_raw_nonce_of_its_hash() {
    let raw = SecretText::new("raw-nonce-from-the-app");
    let hashed = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";
    let with_nonce = claims(json!({"nonce": hashed}));
    assert!(check_presented_nonce(Some(&raw), &with_nonce).is_ok());
    assert_eq!(
        message(check_presented_nonce(None, &with_nonce)),
        "id_token carries a nonce but the request has none"
    );
    // A web code flow's token carries the state's raw nonce: no app can present it.
    let code_flow = claims(json!({"nonce": "raw-nonce-from-the-app"}));
    assert!(check_presented_nonce(None, &code_flow).is_err());
    assert!(check_presented_nonce(Some(&raw), &code_flow).is_err());
    let without = claims(json!({}));
    assert!(check_presented_nonce(None, &without).is_ok());
    assert_eq!(
        message(check_presented_nonce(Some(&raw), &without)),
        "id_token has no nonce"
    );
}

#[test]
fn a_presented_token_is_usable_until_its_expiry_plus_the_leeway_and_no_longer_than_allowed() {
    let now = OffsetDateTime::from_unix_timestamp(NOW).unwrap();
    let day = Duration::hours(24);
    let exp = |exp: i64| claims(json!({"exp": exp}));
    assert_eq!(
        usable_until(&exp(NOW + 3600), now, day).unwrap(),
        now + Duration::seconds(3600 + CLOCK_LEEWAY_SECS)
    );
    assert!(usable_until(&exp(NOW + 86_400 - CLOCK_LEEWAY_SECS), now, day).is_ok());
    assert_eq!(
        message(usable_until(&exp(NOW + 86_401 - CLOCK_LEEWAY_SECS), now, day).map(|_| ())),
        "id_token expires too far ahead (exp)"
    );
    assert!(usable_until(&exp(i64::MAX), now, day).is_err());
    assert!(usable_until(&claims(json!({})), now, day).is_err());
}
