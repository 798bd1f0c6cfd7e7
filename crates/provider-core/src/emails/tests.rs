//! The email rule of the emails list, on documents alone: GitHub's list and Bitbucket's.

use super::*;
use serde_json::json;

/// GitHub's list: the answer is the array; `primary` and `verified` booleans.
fn github() -> EmailsList {
    EmailsList {
        url: None,
        list: String::new(),
        address: "/email".into(),
        primary: Some("/primary".into()),
        verified: Some("/verified".into()),
    }
}

fn entries(answer: &Value) -> Vec<&Map<String, Value>> {
    answer
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_object)
        .collect()
}

fn email(raw: &str) -> Option<Email> {
    Email::parse(raw).ok()
}

fn chosen(list: &EmailsList, profile: Option<&str>, answer: &Value) -> (Option<String>, bool) {
    let (email, verified) = choose(list, profile.and_then(email), entries(answer));
    (email.map(|email| email.as_str().to_owned()), verified)
}

#[test]
fn the_verified_primary_email_is_chosen_over_others() {
    let answer = json!([
        {"email": "583231+ada@users.noreply.github.com", "primary": false, "verified": true},
        {"email": "ada@example.com", "primary": true, "verified": true},
    ]);
    assert_eq!(
        chosen(&github(), None, &answer),
        (Some("ada@example.com".into()), true)
    );
}

#[test]
fn an_unverified_primary_gives_no_email_rather_than_another_entry() {
    let answer = json!([
        {"email": "ada@example.com", "primary": true, "verified": false},
        {"email": "other@example.com", "primary": false, "verified": true},
    ]);
    assert_eq!(chosen(&github(), None, &answer), (None, false));
}

#[test]
fn a_profile_email_is_verified_only_if_listed_as_verified() {
    let listed = json!([{"email": "Ada@Example.com", "primary": false, "verified": true}]);
    assert_eq!(
        chosen(&github(), Some("ada@example.com"), &listed),
        (Some("ada@example.com".into()), true)
    );
    assert_eq!(
        chosen(&github(), Some("ada@example.com"), &json!([])),
        (Some("ada@example.com".into()), false)
    );
}

#[test]
fn a_malformed_address_counts_as_none() {
    let answer = json!([{"email": "not-an-email", "primary": true, "verified": true}]);
    assert_eq!(chosen(&github(), None, &answer), (None, false));
}

#[test]
fn without_a_primary_pointer_the_first_verified_entry_is_chosen() {
    let first_verified = EmailsList {
        primary: None,
        ..github()
    };
    let answer = json!([
        {"email": "old@example.com", "verified": false},
        {"email": "ada@example.com", "verified": true},
    ]);
    assert_eq!(
        chosen(&first_verified, None, &answer),
        (Some("ada@example.com".into()), true)
    );
    let unflagged = EmailsList {
        verified: None,
        ..first_verified
    };
    assert_eq!(
        chosen(&unflagged, None, &answer),
        (None, false),
        "nothing vouches"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(192))]

    /// Whatever the list holds, the email kept is one the answers offered, and it is
    /// verified only when a verified entry names it.
    #[test]
    fn the_email_kept_is_offered_and_verified_only_by_a_verified_entry(
        body in crate::json_strategies::document(
            json!([
                {"email": "ada@example.com", "primary": true, "verified": true},
                {"email": "583231+ada@users.noreply.github.com", "primary": false, "verified": 1},
            ]),
            &["email", "primary", "verified"],
        ),
        profile in proptest::option::of(crate::json_strategies::text()),
    ) {
        let Ok(answer) = serde_json::from_slice::<Value>(&body) else {
            return Ok(());
        };
        let Some(items) = answer.as_array() else {
            return Ok(());
        };
        let listed: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
        let profile = profile.and_then(|raw| email(&raw));
        let (kept, verified) = choose(&github(), profile.clone(), listed.clone());
        let Some(kept) = kept else {
            proptest::prop_assert!(!verified);
            return Ok(());
        };
        let addresses = || listed.iter().filter_map(|entry| text_at(entry, "/email").and_then(email));
        let offered = profile.iter().cloned().chain(addresses());
        proptest::prop_assert!(offered.into_iter().any(|o| o.as_str() == kept.as_str()));
        if verified {
            let vouched = listed.iter().any(|entry| {
                holds(value_at(entry, "/verified"))
                    && text_at(entry, "/email").and_then(email).is_some_and(|e| e.matches(&kept))
            });
            proptest::prop_assert!(vouched, "verified without a verified entry");
        }
    }
}
