//! Property tests of the email rule: whatever the emails list holds (random bytes, truncated
//! text, a real list with entries removed, retyped or oversized), the email kept is one the
//! answers offered, and it is verified only when a verified entry names it.

use super::emails::{EmailEntry, choose};
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::Email;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{document, text};

const EMAIL_KEYS: &[&str] = &["email", "primary", "verified", "visibility"];

fn emails() -> Value {
    json!([
        {"email": "ada@example.com", "primary": true, "verified": true, "visibility": "public"},
        {"email": "583231+ada@users.noreply.github.com", "primary": false, "verified": true,
         "visibility": null},
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn the_email_kept_is_offered_and_verified_only_by_a_verified_entry(
        body in document(emails(), EMAIL_KEYS),
        public in prop::option::of(text()),
    ) {
        let Ok(entries) = decode_json::<Vec<EmailEntry>>("GitHub emails endpoint", &body) else {
            return Ok(());
        };
        let public = public.and_then(|raw| Email::parse(&raw).ok());
        let (email, verified) = choose(public.clone(), &entries);
        let Some(email) = email else {
            prop_assert!(!verified);
            return Ok(());
        };
        let offered = public.iter().cloned().chain(entries.iter().filter_map(|e| Email::parse(&e.email).ok()));
        prop_assert!(offered.into_iter().any(|o| o.as_str() == email.as_str()));
        if verified {
            let vouched = entries.iter().any(|entry| {
                entry.verified && Email::parse(&entry.email).is_ok_and(|e| e.matches(&email))
            });
            prop_assert!(vouched, "verified without a verified entry");
        }
    }
}
