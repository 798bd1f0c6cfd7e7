//! A clock that stands still until a test moves it.

use social_login_ports::Clock;
use std::sync::Mutex;
use time::{Duration, OffsetDateTime};

/// Starts at a fixed instant; `advance` moves it, so expiry is tested without sleeping.
pub struct FakeClock {
    now: Mutex<OffsetDateTime>,
}

impl FakeClock {
    pub fn at(start: OffsetDateTime) -> Self {
        Self {
            now: Mutex::new(start),
        }
    }

    pub fn advance(&self, by: Duration) {
        *self.now.lock().unwrap() += by;
    }
}

impl Clock for FakeClock {
    fn now(&self) -> OffsetDateTime {
        *self.now.lock().unwrap()
    }
}
