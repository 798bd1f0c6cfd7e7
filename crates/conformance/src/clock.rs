//! A clock tests move by hand, for id_token times, key-set cache timing and client secrets.

use social_login_ports::Clock;
use std::sync::{Arc, Mutex, PoisonError};
use time::OffsetDateTime;

/// Starts at the real time (plus an offset), so the simulator's tokens are fresh for it.
#[derive(Debug)]
pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    pub fn starting_now() -> Arc<Self> {
        Self::starting_at(time::Duration::ZERO)
    }

    pub fn starting_at(offset: time::Duration) -> Arc<Self> {
        Arc::new(Self(Mutex::new(OffsetDateTime::now_utc() + offset)))
    }

    pub fn advance(&self, by: time::Duration) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
