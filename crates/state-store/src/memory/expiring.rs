//! A map whose entries expire, grouped in minute buckets so forgetting the expired ones is
//! dropping whole buckets, never a scan of the map.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::Hash;
use time::OffsetDateTime;

/// Bucket width: an entry is forgotten at most this long after it expires.
pub const BUCKET_SECONDS: i64 = 60;

/// Entries with an expiry. An expired entry is invisible to [`Expiring::get`] at once and
/// leaves memory at the next [`Expiring::forget_expired`] after its minute has passed.
pub struct Expiring<K, V> {
    entries: HashMap<K, (V, OffsetDateTime)>,
    /// Bucket number (the end of its minute, in minutes since the epoch) → keys expiring in it.
    buckets: BTreeMap<i64, HashSet<K>>,
}

impl<K, V> Default for Expiring<K, V> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
            buckets: BTreeMap::new(),
        }
    }
}

impl<K: Hash + Eq + Copy, V> Expiring<K, V> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Drops every bucket whose minute has fully passed: all its entries have expired.
    pub fn forget_expired(&mut self, now: OffsetDateTime) {
        let current = now.unix_timestamp().div_euclid(BUCKET_SECONDS);
        while let Some(entry) = self.buckets.first_entry() {
            if *entry.key() > current {
                break;
            }
            for key in entry.remove() {
                self.entries.remove(&key);
            }
        }
    }

    /// The entry of `key` if it has not expired by `now`, with its expiry.
    pub fn get(&self, key: &K, now: OffsetDateTime) -> Option<(&V, OffsetDateTime)> {
        self.entries
            .get(key)
            .filter(|(_, expires_at)| *expires_at > now)
            .map(|(value, expires_at)| (value, *expires_at))
    }

    /// Whether `key` is held, expired or not (until its bucket is dropped).
    pub fn holds(&self, key: &K) -> bool {
        self.entries.contains_key(key)
    }

    /// Sets `key` to `value` until `expires_at`, replacing what it held.
    pub fn insert(&mut self, key: K, value: V, expires_at: OffsetDateTime) {
        self.remove(&key);
        self.buckets
            .entry(bucket_of(expires_at))
            .or_default()
            .insert(key);
        self.entries.insert(key, (value, expires_at));
    }

    pub fn remove(&mut self, key: &K) {
        if let Some((_, expires_at)) = self.entries.remove(key) {
            let bucket = bucket_of(expires_at);
            if let Some(keys) = self.buckets.get_mut(&bucket) {
                keys.remove(key);
                if keys.is_empty() {
                    self.buckets.remove(&bucket);
                }
            }
        }
    }
}

/// The bucket of an entry expiring at `expires_at`: the first minute boundary at or after
/// it, so the entry is kept at least until it expires.
pub fn bucket_of(expires_at: OffsetDateTime) -> i64 {
    expires_at.unix_timestamp().div_euclid(BUCKET_SECONDS) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(seconds).unwrap()
    }

    #[test]
    fn an_entry_goes_in_a_bucket_that_ends_after_its_expiry() {
        for seconds in [0, 1, 59, 60, 61, 1_800_000_000] {
            assert!(
                bucket_of(at(seconds)) * BUCKET_SECONDS > seconds,
                "{seconds}"
            );
        }
    }

    #[test]
    fn an_expired_entry_is_invisible_then_forgotten() {
        let mut map = Expiring::default();
        map.insert(1u8, "one", at(1_000));
        assert_eq!(map.get(&1, at(999)).map(|(v, _)| *v), Some("one"));
        assert_eq!(map.get(&1, at(1_000)), None);
        map.forget_expired(at(1_000));
        assert!(map.holds(&1), "kept until its minute has passed");
        map.forget_expired(at(1_000 + BUCKET_SECONDS));
        assert_eq!(map.len(), 0);
        assert!(map.buckets.is_empty());
    }

    #[test]
    fn replacing_or_removing_an_entry_leaves_no_key_behind_in_its_old_bucket() {
        let mut map = Expiring::default();
        map.insert(7u8, 1, at(1_000));
        map.insert(7, 2, at(5_000));
        assert_eq!(map.buckets.values().map(HashSet::len).sum::<usize>(), 1);
        map.remove(&7);
        assert_eq!(map.len(), 0);
        assert!(map.buckets.is_empty());
    }
}
