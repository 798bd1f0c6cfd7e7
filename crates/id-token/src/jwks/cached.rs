//! What a key-set cache holds, and what a lookup does with it at a given time: pure
//! decisions, no I/O, so every rule of the policy in `jwks.rs` is tested with made-up times.

use super::key::PublicKey;
use super::{KEY_SET_GRACE, KEY_SET_TTL, PRESENTED_REFETCH_INTERVAL, RETRY_INTERVAL, TokenOrigin};
use jsonwebtoken::Algorithm;
use social_login_ports::ProviderError;
use time::{Duration, OffsetDateTime};

/// The keys of the last successful fetch and the record of the last attempt.
#[derive(Debug, Default)]
pub struct Cached {
    keys: Vec<PublicKey>,
    /// When the keys were fetched.
    fetched_at: Option<OffsetDateTime>,
    /// When a fetch was last attempted, successful or not: the start of the retry interval.
    attempted_at: Option<OffsetDateTime>,
    /// When a fetch last started, whether or not it finished (never before `attempted_at`):
    /// the start of the interval between refetches for presented tokens. A caller that gives up during the fetch (its
    /// request dropped, or cut off by its deadline) has still spent it, or an attacker who
    /// hangs up at once could make each of its tokens cost a fetch.
    started_at: Option<OffsetDateTime>,
    /// Why the last attempt failed; `None` when it succeeded (or none was made).
    last_failure: Option<ProviderError>,
    /// Finished attempts. A caller that waited for another's fetch sees it changed and
    /// takes that outcome instead of fetching again.
    attempts: u64,
}

/// Why a lookup found no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMiss {
    /// The set could not be fetched: the key may be one the provider publishes now.
    Unreachable(ProviderError),
    /// The set as read holds no such key (or the key is for another algorithm).
    NotInSet(ProviderError),
}

impl From<KeyMiss> for ProviderError {
    fn from(miss: KeyMiss) -> Self {
        match miss {
            KeyMiss::Unreachable(error) | KeyMiss::NotInSet(error) => error,
        }
    }
}

/// What a lookup found.
#[derive(Debug)]
pub enum Lookup {
    Found(PublicKey),
    Refused(KeyMiss),
    /// The set must be fetched first. `meanwhile` is the key from a set past its hour but
    /// within the grace: usable at once when another caller is already fetching.
    /// `attempts` is [`Cached::attempts`] as seen now.
    Refresh {
        meanwhile: Option<PublicKey>,
        attempts: u64,
    },
}

impl Cached {
    pub fn attempts(&self) -> u64 {
        self.attempts
    }

    /// The key for `kid` at `now` for a token from `origin`, or whether to fetch first.
    pub fn lookup(&self, kid: Option<&str>, now: OffsetDateTime, origin: TokenOrigin) -> Lookup {
        let refresh = |meanwhile| Lookup::Refresh {
            meanwhile,
            attempts: self.attempts,
        };
        if self.is_fresh(now) {
            return match self.find(kid) {
                Some(key) => Lookup::Found(key.clone()),
                // A rotation: the provider signs with a key published after our fetch. A
                // token from the token endpoint came from the provider itself, so it always
                // earns one refetch; anyone can present a token, so those are rate-limited.
                None if origin == TokenOrigin::TokenEndpoint => refresh(None),
                None if self.started_before(now, PRESENTED_REFETCH_INTERVAL) => refresh(None),
                None => Lookup::Refused(KeyMiss::NotInSet(not_in_set())),
            };
        }
        if self.attempted_before(now, RETRY_INTERVAL) {
            let meanwhile = self.usable(now).then(|| self.find(kid).cloned()).flatten();
            return refresh(meanwhile);
        }
        // A refresh failed moments ago: no new attempt until the retry interval is over.
        match self.settle(kid, now) {
            Ok(key) => Lookup::Found(key),
            Err(error) => Lookup::Refused(error),
        }
    }

    /// After an attempt (this caller's or another's): the key from the set as it is now.
    pub fn settle(&self, kid: Option<&str>, now: OffsetDateTime) -> Result<PublicKey, KeyMiss> {
        if let Some(key) = self.usable(now).then(|| self.find(kid)).flatten() {
            return Ok(key.clone());
        }
        Err(match self.last_failure.clone() {
            Some(failure) => KeyMiss::Unreachable(failure),
            None => KeyMiss::NotInSet(not_in_set()),
        })
    }

    /// An attempt starts at `now`: it counts for the refetch interval even if nobody
    /// records its outcome.
    pub fn begin(&mut self, now: OffsetDateTime) {
        self.started_at = Some(now);
    }

    /// Records the outcome of an attempt started at `now`. A failure keeps the old keys.
    pub fn record(&mut self, outcome: Result<Vec<PublicKey>, ProviderError>, now: OffsetDateTime) {
        self.attempted_at = Some(now);
        self.started_at = Some(now);
        self.attempts += 1;
        match outcome {
            Ok(keys) => {
                self.keys = keys;
                self.fetched_at = Some(now);
                self.last_failure = None;
            }
            Err(error) => self.last_failure = Some(error),
        }
    }

    pub fn key_count(&self) -> usize {
        self.keys.len()
    }

    fn age(&self, now: OffsetDateTime) -> Option<Duration> {
        self.fetched_at.map(|at| now - at)
    }

    fn is_fresh(&self, now: OffsetDateTime) -> bool {
        self.age(now).is_some_and(|age| age < KEY_SET_TTL)
    }

    /// Fresh, or expired less than [`KEY_SET_GRACE`] ago.
    fn usable(&self, now: OffsetDateTime) -> bool {
        self.age(now)
            .is_some_and(|age| age < KEY_SET_TTL + KEY_SET_GRACE)
    }

    /// Whether the last recorded attempt started at least `interval` before `now` (or
    /// never was).
    fn attempted_before(&self, now: OffsetDateTime, interval: Duration) -> bool {
        self.attempted_at.is_none_or(|at| now - at >= interval)
    }

    /// Whether the last attempt, recorded or given up, started at least `interval` before
    /// `now` (or never was).
    fn started_before(&self, now: OffsetDateTime, interval: Duration) -> bool {
        self.started_at.is_none_or(|at| now - at >= interval)
    }

    /// Another key named `kid` that verifies `algorithm`: keys of different types (or
    /// algorithms) may share a `kid` (RFC 7517 §4.5), and the first found may not fit.
    pub fn namesake(
        &self,
        kid: Option<&str>,
        algorithm: Algorithm,
        now: OffsetDateTime,
    ) -> Option<PublicKey> {
        let kid = kid?;
        let named = |key: &&PublicKey| key.kid.as_deref() == Some(kid);
        let usable = self.usable(now).then_some(&self.keys)?;
        (usable.iter().filter(named))
            .find(|key| key.accepts(algorithm))
            .cloned()
    }

    /// The key named `kid`; a token without `kid` may use the only key of a one-key set.
    fn find(&self, kid: Option<&str>) -> Option<&PublicKey> {
        match kid {
            Some(kid) => self.keys.iter().find(|key| key.kid.as_deref() == Some(kid)),
            None if self.keys.len() == 1 => self.keys.first(),
            None => None,
        }
    }
}

fn not_in_set() -> ProviderError {
    ProviderError::UserInfo("id_token key id is not in the provider's key set".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::DecodingKey;
    use social_login_simulator::TEST_KEY_A;

    /// 2026-01-01T00:00:00Z, the time of the first fetch.
    fn t0() -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_767_225_600).unwrap()
    }

    const PRESENTED: TokenOrigin = TokenOrigin::Presented;
    const ENDPOINT: TokenOrigin = TokenOrigin::TokenEndpoint;

    fn key(kid: &str) -> PublicKey {
        PublicKey {
            kid: Some(kid.into()),
            alg: None,
            ec_algorithm: None,
            issuer: None,
            key: DecodingKey::from_rsa_components(TEST_KEY_A.n, TEST_KEY_A.e).unwrap(),
        }
    }

    #[test]
    fn a_kid_two_keys_share_finds_the_one_for_the_tokens_algorithm() {
        let named = |alg: &str| PublicKey {
            alg: Some(alg.into()),
            ..key("a")
        };
        let mut cached = Cached::default();
        cached.record(Ok(vec![named("RS512"), named("RS256")]), t0());
        let fits = |algorithm| cached.namesake(Some("a"), algorithm, t0());
        assert_eq!(
            fits(Algorithm::RS256).and_then(|key| key.alg).as_deref(),
            Some("RS256")
        );
        assert!(fits(Algorithm::ES256).is_none(), "no key of that family");
        assert!(cached.namesake(Some("b"), Algorithm::RS256, t0()).is_none());
        assert!(cached.namesake(None, Algorithm::RS256, t0()).is_none());
    }

    fn outage() -> ProviderError {
        ProviderError::UserInfo("JWKS endpoint answered HTTP 500".into())
    }

    /// A cache that fetched key `a` at [`t0`].
    fn fetched() -> Cached {
        let mut cached = Cached::default();
        cached.record(Ok(vec![key("a")]), t0());
        cached
    }

    fn found(lookup: Lookup) -> String {
        match lookup {
            Lookup::Found(key) => key.kid.unwrap(),
            other => panic!("expected a key, got {other:?}"),
        }
    }

    fn refused(lookup: Lookup) -> ProviderError {
        match lookup {
            Lookup::Refused(miss) => miss.into(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    fn refresh(lookup: Lookup) -> Option<String> {
        match lookup {
            Lookup::Refresh { meanwhile, .. } => meanwhile.and_then(|key| key.kid),
            other => panic!("expected a refresh, got {other:?}"),
        }
    }

    #[test]
    fn an_empty_cache_fetches_with_nothing_to_use_meanwhile() {
        assert_eq!(
            refresh(Cached::default().lookup(Some("a"), t0(), PRESENTED)),
            None
        );
    }

    #[test]
    fn a_fresh_set_answers_known_kids_and_refetches_for_a_presented_unknown_one_every_10_s() {
        let cached = fetched();
        let later = t0() + Duration::minutes(59);
        assert_eq!(found(cached.lookup(Some("a"), later, PRESENTED)), "a");
        assert_eq!(
            found(cached.lookup(None, later, PRESENTED)),
            "a",
            "the only key"
        );
        assert_eq!(refresh(cached.lookup(Some("b"), later, PRESENTED)), None);
        let within = t0() + PRESENTED_REFETCH_INTERVAL - Duration::seconds(1);
        assert_eq!(
            refused(cached.lookup(Some("b"), within, PRESENTED)),
            not_in_set()
        );
        let after = t0() + PRESENTED_REFETCH_INTERVAL;
        assert_eq!(refresh(cached.lookup(Some("b"), after, PRESENTED)), None);
    }

    #[test]
    fn an_unknown_kid_from_the_token_endpoint_refetches_however_recent_the_set() {
        let cached = fetched();
        assert_eq!(refresh(cached.lookup(Some("b"), t0(), ENDPOINT)), None);
        assert_eq!(
            refresh(cached.lookup(Some("b"), t0() + Duration::seconds(1), ENDPOINT)),
            None
        );
        assert_eq!(found(cached.lookup(Some("a"), t0(), ENDPOINT)), "a");
    }

    #[test]
    fn after_its_hour_the_set_is_refreshed_and_usable_meanwhile() {
        let cached = fetched();
        let stale = t0() + KEY_SET_TTL;
        assert_eq!(
            refresh(cached.lookup(Some("a"), stale, PRESENTED)).as_deref(),
            Some("a")
        );
        assert_eq!(refresh(cached.lookup(Some("b"), stale, PRESENTED)), None);
    }

    #[test]
    fn a_failed_refresh_keeps_serving_the_keys_until_the_grace_is_over() {
        let mut cached = fetched();
        let failed_at = t0() + Duration::hours(2);
        cached.record(Err(outage()), failed_at);
        assert_eq!(found(cached.lookup(Some("a"), failed_at, PRESENTED)), "a");
        assert_eq!(
            cached.settle(Some("a"), failed_at).unwrap().kid.unwrap(),
            "a"
        );
        // An unknown kid is explained by the outage, not by the set.
        assert_eq!(
            refused(cached.lookup(Some("b"), failed_at, PRESENTED)),
            outage()
        );

        let mut late = fetched();
        let end_of_grace = t0() + KEY_SET_TTL + KEY_SET_GRACE;
        late.record(Err(outage()), end_of_grace - Duration::seconds(1));
        assert_eq!(
            found(late.lookup(Some("a"), end_of_grace - Duration::seconds(1), PRESENTED)),
            "a"
        );
        assert_eq!(
            refused(late.lookup(Some("a"), end_of_grace, PRESENTED)),
            outage()
        );
    }

    #[test]
    fn after_a_failure_the_next_attempt_waits_for_the_retry_interval() {
        let mut cached = fetched();
        let failed_at = t0() + Duration::hours(2);
        cached.record(Err(outage()), failed_at);
        let almost = failed_at + RETRY_INTERVAL - Duration::seconds(1);
        assert_eq!(found(cached.lookup(Some("a"), almost, PRESENTED)), "a");
        let retry = failed_at + RETRY_INTERVAL;
        assert_eq!(
            refresh(cached.lookup(Some("a"), retry, PRESENTED)).as_deref(),
            Some("a")
        );
    }

    #[test]
    fn a_cold_cache_that_failed_refuses_with_the_failure_until_it_may_retry() {
        let mut cached = Cached::default();
        cached.record(Err(outage()), t0());
        assert_eq!(
            refused(cached.lookup(Some("a"), t0() + Duration::seconds(10), PRESENTED)),
            outage()
        );
        assert_eq!(
            refresh(cached.lookup(Some("a"), t0() + RETRY_INTERVAL, PRESENTED)),
            None
        );
    }

    #[test]
    fn a_successful_fetch_clears_the_failure_and_counts_as_an_attempt() {
        let mut cached = Cached::default();
        cached.record(Err(outage()), t0());
        cached.record(Ok(vec![key("b")]), t0() + RETRY_INTERVAL);
        assert_eq!(cached.attempts(), 2);
        assert_eq!(cached.key_count(), 1);
        let now = t0() + RETRY_INTERVAL;
        assert_eq!(
            cached.settle(Some("a"), now).unwrap_err(),
            KeyMiss::NotInSet(not_in_set())
        );
        assert_eq!(cached.settle(Some("b"), now).unwrap().kid.unwrap(), "b");
    }
}
