//! The mapping rules, one document shape at a time.

use super::*;
use serde_json::json;
use social_login_provider_spec::Claims;

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(members) => members,
        other => panic!("not an object: {other}"),
    }
}

const KEY: ProviderKey = ProviderKey::GOOGLE;

fn oidc() -> Claims {
    Claims::openid_connect()
}

fn email_of(mapped: &ProviderIdentity) -> Option<&str> {
    mapped.email.as_ref().map(Email::as_str)
}

#[test]
fn the_first_source_with_a_value_wins_field_by_field() {
    let id_token = object(json!({"sub": "1", "name": "Ada"}));
    let userinfo = object(
        json!({"sub": "1", "name": "Other", "picture": " https://p/a ",
        "email": "ada@example.com", "email_verified": true}),
    );
    let mapped = map(&[&id_token, &userinfo], &oidc(), KEY).unwrap();
    assert_eq!(mapped.subject.as_str(), "1");
    assert_eq!(mapped.full_name.as_deref(), Some("Ada"));
    assert_eq!(mapped.avatar_url.as_deref(), Some("https://p/a"));
    assert_eq!(email_of(&mapped), Some("ada@example.com"));
    assert!(mapped.email_verified);
}

#[test]
fn email_verified_is_read_from_the_source_that_gave_the_email() {
    let id_token = object(json!({"sub": "1", "email": "ada@example.com"}));
    let userinfo = object(json!({"sub": "1", "email_verified": true}));
    let mapped = map(&[&id_token, &userinfo], &oidc(), KEY).unwrap();
    assert_eq!(email_of(&mapped), Some("ada@example.com"));
    assert!(!mapped.email_verified, "a flag beside no address vouched");

    let other = object(json!({"sub": "1", "email": "eve@example.com", "email_verified": true}));
    assert!(
        !map(&[&id_token, &other], &oidc(), KEY)
            .unwrap()
            .email_verified,
        "a flag beside another address vouched"
    );
    let same = object(json!({"sub": "1", "email": "Ada@Example.com", "email_verified": true}));
    assert!(
        map(&[&id_token, &same], &oidc(), KEY)
            .unwrap()
            .email_verified,
        "userinfo vouches for the id_token's address (Vercel)"
    );

    let signed_no =
        object(json!({"sub": "1", "email": "ada@example.com", "email_verified": "false"}));
    let userinfo_yes =
        object(json!({"sub": "1", "email": "ada@example.com", "email_verified": true}));
    assert!(
        !map(&[&signed_no, &userinfo_yes], &oidc(), KEY)
            .unwrap()
            .email_verified
    );
}

#[test]
fn true_is_a_json_true_the_string_true_or_the_number_1() {
    let verified = |flag: Value| {
        let document = object(json!({"sub": "1", "email": "a@b.c", "email_verified": flag}));
        map(&[&document], &oidc(), KEY).unwrap().email_verified
    };
    for yes in [json!(true), json!("true"), json!(1)] {
        assert!(verified(yes.clone()), "{yes}");
    }
    for no in [
        json!(false),
        json!("yes"),
        json!("TRUE"),
        json!("True"),
        json!(" true"),
        json!(0),
        json!(2),
        json!("1"),
        Value::Null,
    ] {
        assert!(!verified(no.clone()), "{no}");
    }
}

#[test]
fn when_present_verifies_any_email_and_never_verifies_none() {
    let document = object(json!({"id": "1", "email": "a@b.c", "verified": true}));
    let mut claims = Claims {
        subject: "/id".into(),
        email: Some("/email".into()),
        email_verified: EmailVerified::WhenPresent,
        name: Vec::new(),
        avatar_url: None,
        hosted_domain: None,
    };
    assert!(map(&[&document], &claims, KEY).unwrap().email_verified);
    claims.email_verified = EmailVerified::Never;
    let mapped = map(&[&document], &claims, KEY).unwrap();
    assert_eq!(email_of(&mapped), Some("a@b.c"));
    assert!(!mapped.email_verified);
}

#[test]
fn a_malformed_email_is_no_email_and_the_next_source_is_not_asked() {
    let id_token = object(json!({"sub": "1", "email": "not an email", "email_verified": true}));
    let userinfo = object(json!({"sub": "1", "email": "ada@example.com", "email_verified": true}));
    let mapped = map(&[&id_token, &userinfo], &oidc(), KEY).unwrap();
    assert_eq!(mapped.email, None);
    assert!(!mapped.email_verified);
    // A blank one is no value at all: the next source gives it.
    let blank = object(json!({"sub": "1", "email": "  "}));
    assert_eq!(
        email_of(&map(&[&blank, &userinfo], &oidc(), KEY).unwrap()),
        Some("ada@example.com")
    );
}

#[test]
fn names_fall_back_through_the_pointers_and_skip_blank_or_odd_values() {
    let claims = Claims {
        subject: "/id".into(),
        email: None,
        email_verified: EmailVerified::Never,
        name: vec!["/global_name".into(), "/username".into()],
        avatar_url: None,
        hosted_domain: None,
    };
    for global_name in [Value::Null, json!(" "), json!(5), json!({"x": 1})] {
        let document = object(json!({"id": "7", "global_name": global_name, "username": "ada"}));
        let mapped = map(&[&document], &claims, KEY).unwrap();
        assert_eq!(mapped.full_name.as_deref(), Some("ada"));
    }
}

#[test]
fn a_numeric_subject_is_its_decimal_text_and_nested_pointers_reach_in() {
    let claims = Claims {
        subject: "/data/id".into(),
        email: Some("/data/attributes/mail".into()),
        email_verified: EmailVerified::AllOf(vec!["/data/attributes/mail_confirmed".into()]),
        name: vec!["/data/attributes/display".into()],
        avatar_url: Some("/data/attributes/avatar/url".into()),
        hosted_domain: None,
    };
    let document = object(json!({"data": {"id": 583231, "attributes": {
        "mail": "ada@example.com", "mail_confirmed": "true", "display": "Ada",
        "avatar": {"url": "https://a/1"}}}}));
    let mapped = map(&[&document], &claims, KEY).unwrap();
    assert_eq!(mapped.subject.as_str(), "583231");
    assert!(mapped.email_verified);
    assert_eq!(mapped.full_name.as_deref(), Some("Ada"));
    assert_eq!(mapped.avatar_url.as_deref(), Some("https://a/1"));
}

#[test]
fn escaped_pointer_tokens_name_members_with_slashes_and_tildes() {
    let document = object(json!({"a/b": {"m~n": "x1"}}));
    let claims = Claims {
        subject: "/a~1b/m~0n".into(),
        ..oidc()
    };
    assert_eq!(
        map(&[&document], &claims, KEY).unwrap().subject.as_str(),
        "x1"
    );
}

#[test]
fn a_missing_empty_oversized_or_odd_subject_is_a_user_info_failure() {
    for sub in [
        Value::Null,
        json!(""),
        json!("x".repeat(256)),
        json!(true),
        json!(["1"]),
    ] {
        let document = object(json!({ "sub": sub }));
        match map(&[&document], &oidc(), KEY) {
            Err(ProviderError::UserInfo(message)) => {
                assert!(message.contains("`/sub`"), "{message}")
            }
            other => panic!("{sub}: {other:?}"),
        }
    }
    assert!(map(&[], &oidc(), KEY).is_err());
}

#[test]
fn a_verified_flag_without_an_email_verifies_nothing() {
    let document = object(json!({"sub": "1", "email_verified": true}));
    let mapped = map(&[&document], &oidc(), KEY).unwrap();
    assert_eq!(mapped.provider, KEY);
    assert_eq!(mapped.email, None);
    assert!(!mapped.email_verified);
}

#[test]
fn a_declared_hosted_domain_is_read_and_its_absence_is_none() {
    let claims = Claims {
        hosted_domain: Some("/hd".into()),
        ..oidc()
    };
    let member = object(json!({"sub": "1", "hd": " acme.com "}));
    let mapped = map(&[&member], &claims, KEY).unwrap();
    assert_eq!(mapped.hosted_domain.as_deref(), Some("acme.com"));
    let consumer = object(json!({"sub": "1", "hd": 7}));
    assert_eq!(map(&[&consumer], &claims, KEY).unwrap().hosted_domain, None);
    // Undeclared, the claim is not read even when present.
    assert_eq!(map(&[&member], &oidc(), KEY).unwrap().hosted_domain, None);
}
