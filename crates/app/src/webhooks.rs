//! Delivering audit events to the webhook receiver, from the outbox.
//!
//! Each event has its own schedule: a failed one is retried with exponential backoff while
//! the others go on, so one event the receiver refuses never holds back the rest. Events may
//! therefore arrive out of order; each carries its id and timestamp. At least once: an event
//! leaves the outbox after a 2xx, or becomes a dead letter after [`DeliveryLimits::max_attempts`]
//! counted failures or [`DEAD_AFTER`] (kept, listed and redelivered by the operator).
//!
//! While the receiver seems away (an attempt got no answer, 429 or a 5xx) an instance stops
//! sending due events and instead probes it with the one event whose turn comes first, once
//! per probe period ([`PROBE_EVERY`] unless its [`DeliveryPace`] says otherwise) across
//! every instance: the outbox keeps the receiver's turn. The first probe that gets an answer
//! resumes everything, and the events waiting for the receiver are due by then. A probe that
//! finds the receiver still away does not count against its event.

mod dead_letters;
mod delivery;
mod maintenance;
mod receiver;

pub use dead_letters::DeadLetters;
pub use delivery::{Attempt, WebhookDelivery};

use time::Duration;

/// How long a claim holds an event: longer than one delivery attempt may take.
pub const LEASE: Duration = Duration::seconds(60);
/// First retry after this; each next one waits twice as long, up to [`MAX_RETRY_DELAY`].
pub const FIRST_RETRY_DELAY: Duration = Duration::seconds(2);
pub const MAX_RETRY_DELAY: Duration = Duration::hours(8);
/// An event not delivered this long after it happened becomes a dead letter.
pub const DEAD_AFTER: Duration = Duration::days(3);
/// While the receiver seems away: one probe per this period, whatever the instances.
pub const PROBE_EVERY: Duration = Duration::seconds(5);
/// How often an instance with free slots looks for due events (every instance looks; the
/// outbox's claims give each event to one of them).
pub const POLL_EVERY: Duration = Duration::milliseconds(500);
/// How often the outbox is tended: dead letters by age and bound, gauges.
pub const MAINTAIN_EVERY: Duration = Duration::seconds(5);

/// The bounds of delivery, from `[webhooks]`, and its pace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryLimits {
    /// Deliveries in flight at once, per instance.
    pub max_concurrent: u32,
    /// Counted failures before an event becomes a dead letter.
    pub max_attempts: u32,
    /// Pending events kept; beyond it the oldest become dead letters. Dead letters are held
    /// to as many: beyond it, the first to die are forgotten.
    pub max_pending: u64,
    pub pace: DeliveryPace,
}

impl Default for DeliveryLimits {
    fn default() -> Self {
        Self {
            max_concurrent: 8,
            max_attempts: 20,
            max_pending: 100_000,
            pace: DeliveryPace::default(),
        }
    }
}

/// How fast delivery moves. Not configurable: the defaults serve any receiver; the
/// end-to-end tests run the same schedule faster so that it takes seconds, not minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryPace {
    /// [`FIRST_RETRY_DELAY`]: each next retry waits twice as long, up to [`MAX_RETRY_DELAY`].
    pub first_retry: Duration,
    /// [`PROBE_EVERY`].
    pub probe_every: Duration,
    /// [`POLL_EVERY`].
    pub poll_every: Duration,
    /// [`MAINTAIN_EVERY`].
    pub maintain_every: Duration,
}

impl Default for DeliveryPace {
    fn default() -> Self {
        Self {
            first_retry: FIRST_RETRY_DELAY,
            probe_every: PROBE_EVERY,
            poll_every: POLL_EVERY,
            maintain_every: MAINTAIN_EVERY,
        }
    }
}

impl DeliveryPace {
    /// The same schedule `factor` times faster (a `factor` below 1 counts as 1).
    pub fn faster_by(self, factor: i32) -> Self {
        let factor = factor.max(1);
        Self {
            first_retry: self.first_retry / factor,
            probe_every: self.probe_every / factor,
            poll_every: self.poll_every / factor,
            maintain_every: self.maintain_every / factor,
        }
    }

    /// How long a delivery loop waits before it looks for due events again.
    pub fn poll_period(&self) -> std::time::Duration {
        loop_period(self.poll_every)
    }

    /// How often a delivery loop runs [`WebhookDelivery::maintain`].
    pub fn maintain_period(&self) -> std::time::Duration {
        loop_period(self.maintain_every)
    }

    /// The delay before the retry that follows `attempts` counted failures (1 for the first).
    pub fn retry_delay(&self, attempts: u32) -> Duration {
        let doublings = attempts.saturating_sub(1).min(20);
        let delay = self.first_retry * 2_i32.pow(doublings);
        delay.min(MAX_RETRY_DELAY)
    }
}

/// A loop's period: at least a millisecond, as a zero one would spin (and tokio's `interval`
/// panics on it).
fn loop_period(every: Duration) -> std::time::Duration {
    every
        .unsigned_abs()
        .max(std::time::Duration::from_millis(1))
}

/// What one delivery attempt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStep {
    /// Nothing to send (nothing due, or waiting for the next probe).
    Idle,
    Delivered,
    /// Failed; due again later.
    RetryLater,
    /// Failed for good: kept as a dead letter.
    DeadLettered,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retry_delay(attempts: u32) -> Duration {
        DeliveryPace::default().retry_delay(attempts)
    }

    #[test]
    fn a_faster_pace_divides_every_period() {
        let pace = DeliveryPace::default().faster_by(5);
        assert_eq!(pace.first_retry, Duration::milliseconds(400));
        assert_eq!(pace.probe_every, Duration::seconds(1));
        assert_eq!(pace.poll_every, Duration::milliseconds(100));
        assert_eq!(pace.maintain_every, Duration::seconds(1));
        assert_eq!(
            DeliveryPace::default().faster_by(0),
            DeliveryPace::default()
        );
    }

    #[test]
    fn a_loop_period_is_the_pace_s_and_never_zero() {
        let pace = DeliveryPace::default();
        assert_eq!(pace.poll_period(), std::time::Duration::from_millis(500));
        assert_eq!(pace.maintain_period(), std::time::Duration::from_secs(5));
        let zero = DeliveryPace {
            poll_every: Duration::ZERO,
            maintain_every: Duration::ZERO,
            ..pace
        };
        assert_eq!(zero.poll_period(), std::time::Duration::from_millis(1));
        assert_eq!(zero.maintain_period(), std::time::Duration::from_millis(1));
    }

    #[test]
    fn retries_back_off_from_two_seconds_to_eight_hours() {
        assert_eq!(retry_delay(0), Duration::seconds(2));
        assert_eq!(retry_delay(1), Duration::seconds(2));
        assert_eq!(retry_delay(2), Duration::seconds(4));
        assert_eq!(retry_delay(5), Duration::seconds(32));
        assert_eq!(retry_delay(15), MAX_RETRY_DELAY);
        assert_eq!(retry_delay(u32::MAX), MAX_RETRY_DELAY);
    }

    #[test]
    fn twenty_refusals_take_about_two_days() {
        let total: Duration = (1..20).map(retry_delay).sum();
        assert!(total > Duration::days(1) && total < DEAD_AFTER, "{total}");
    }
}
