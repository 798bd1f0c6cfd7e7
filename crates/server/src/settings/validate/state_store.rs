//! `[oauth_state_store]`: the Redis URL and prefix, a state's lifetime, the memory bound.

use super::check_url;
use crate::settings::sections::MAX_STATE_TTL_SECONDS;
use crate::settings::{ConfigErrors, OAuthStateStoreSettings, StateStoreBackend};

/// Upper bound of `max_entries` and `max_attempt_entries`: about 100 bytes an entry, so ~10 GiB; more is a typo.
const MAX_MEMORY_ENTRIES: usize = 100_000_000;

/// Longest `key_prefix`: a key is the prefix plus ~75 characters; keep it short and plain.
const MAX_KEY_PREFIX_LEN: usize = 64;

impl OAuthStateStoreSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if self.backend == StateStoreBackend::Redis {
            let url = self.url.as_deref().unwrap_or_default();
            check_url(errors, "oauth_state_store.url", url, &["redis", "rediss"]);
            check_key_prefix(errors, &self.key_prefix);
        }
        if !(1..=MAX_STATE_TTL_SECONDS).contains(&self.ttl_seconds) {
            errors.push(
                "oauth_state_store.ttl_seconds",
                format!("must be between 1 and {MAX_STATE_TTL_SECONDS} (one hour)"),
            );
        }
        let bounds = [
            ("oauth_state_store.max_entries", self.max_entries),
            (
                "oauth_state_store.max_attempt_entries",
                self.max_attempt_entries,
            ),
        ];
        for (key, bound) in bounds {
            if !(1..=MAX_MEMORY_ENTRIES).contains(&bound) {
                errors.push(key, format!("must be between 1 and {MAX_MEMORY_ENTRIES}"));
            }
        }
    }
}

fn check_key_prefix(errors: &mut ConfigErrors, prefix: &str) {
    let plain = prefix.bytes().all(|b| b.is_ascii_graphic());
    if prefix.is_empty() || prefix.len() > MAX_KEY_PREFIX_LEN || !plain {
        errors.push(
            "oauth_state_store.key_prefix",
            format!(
                "must be 1 to {MAX_KEY_PREFIX_LEN} printable ASCII characters without spaces, e.g. \"social-login:\""
            ),
        );
    }
}
