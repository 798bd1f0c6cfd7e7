//! The refresh grant's controls, the same at every provider that redeems refresh tokens:
//! whether a grant rotates the refresh token (a new one in the answer, the old one spent),
//! how long it waits before its checks (so that a test can make concurrent refreshes
//! overlap) and after issuing (tokens that reach the client late), and how many grants each
//! provider answered. Set through the handle or
//! `POST /_control/refresh_knobs`; counts read through the handle or
//! `GET /_control/refresh_grants`.

use crate::config::Provider;
use crate::lock::locked;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// How the refresh grant behaves; the body of `POST /_control/refresh_knobs` (each member
/// left out takes its default: no rotation, no delays).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RefreshKnobs {
    /// Answer a new refresh token and spend the one presented.
    pub rotation: bool,
    /// Wait this long before the checks.
    pub delay_ms: u64,
    /// Wait this long after issuing the tokens, before the answer leaves.
    pub late_answer_ms: u64,
}

impl RefreshKnobs {
    pub fn delay(&self) -> Duration {
        Duration::from_millis(self.delay_ms)
    }

    pub fn late_answer(&self) -> Duration {
        Duration::from_millis(self.late_answer_ms)
    }

    pub fn set_delay(&mut self, delay: Duration) {
        self.delay_ms = millis(delay);
    }

    pub fn set_late_answer(&mut self, delay: Duration) {
        self.late_answer_ms = millis(delay);
    }
}

fn millis(delay: Duration) -> u64 {
    u64::try_from(delay.as_millis()).unwrap_or(u64::MAX)
}

/// How many refresh grants each provider answered successfully. Bounded: one entry per
/// simulated provider at most.
#[derive(Debug, Default)]
pub struct RefreshCounts(Mutex<BTreeMap<Provider, usize>>);

impl RefreshCounts {
    pub fn count(&self, provider: Provider) {
        *locked(&self.0).entry(provider).or_default() += 1;
    }

    pub fn of(&self, provider: Provider) -> usize {
        locked(&self.0).get(&provider).copied().unwrap_or_default()
    }

    /// Every provider that answered at least one, with its count.
    pub fn all(&self) -> BTreeMap<Provider, usize> {
        locked(&self.0).clone()
    }
}
