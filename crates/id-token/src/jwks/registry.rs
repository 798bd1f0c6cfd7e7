//! The process-wide registry of key-set caches, one per JWKS URL.
//!
//! Why a registry rather than an `Arc` handed in by the composition root: every adapter
//! keeps the same `new(settings, http)` constructor, the server needs no extra wiring, and
//! two instances of a provider (a rebuilt registry, a test harness) can never end up with
//! two caches fetching the same keys. Entries are weak: a cache lives as long as an adapter
//! uses it.

use super::KeySetCache;
use social_login_provider_core::ProviderHttp;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use url::Url;

type Registry = Mutex<HashMap<String, Weak<KeySetCache>>>;

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// The live cache of `url`, or a new one (fetching with `http`) registered for it.
pub fn shared(url: &Url, http: &ProviderHttp) -> Arc<KeySetCache> {
    let registry = REGISTRY.get_or_init(Registry::default);
    let mut caches = registry.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(cache) = caches.get(url.as_str()).and_then(Weak::upgrade) {
        return cache;
    }
    caches.retain(|_, cache| cache.strong_count() > 0);
    let cache = Arc::new(KeySetCache::new(url.clone(), http.clone()));
    caches.insert(url.as_str().to_owned(), Arc::downgrade(&cache));
    cache
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_url_gets_one_cache_while_it_is_in_use() {
        let url = Url::parse("https://keys.example/registry-test/certs").unwrap();
        let http = social_login_provider_core::http_client::test_client();
        let first = shared(&url, &http);
        let second = shared(&url, &http);
        assert!(Arc::ptr_eq(&first, &second));
        let other = shared(&Url::parse("https://keys.example/other").unwrap(), &http);
        assert!(!Arc::ptr_eq(&first, &other));
    }

    #[test]
    fn a_cache_nobody_uses_is_not_kept_alive() {
        let url = Url::parse("https://keys.example/registry-drop/certs").unwrap();
        let http = social_login_provider_core::http_client::test_client();
        let weak = Arc::downgrade(&shared(&url, &http));
        assert!(weak.upgrade().is_none());
    }
}
