//! The clock port: the domain never reads the time itself.

use time::OffsetDateTime;

/// Source of the current time; tests substitute a fixed or advancing one.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Clock: Send + Sync {
    fn now(&self) -> OffsetDateTime;
}

/// The real wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}
