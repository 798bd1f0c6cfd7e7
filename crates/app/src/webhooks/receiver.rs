//! Whether the receiver seems away, as this instance saw it, and when this instance may
//! probe it next. In-process on purpose: what it saw is its own; which instance probes in a
//! period is settled by the outbox's probe turn, and which event goes to whom by its claims,
//! both in the database.

use time::{Duration, OffsetDateTime};

/// Away from the first attempt that got no answer, 429 or a 5xx (which says the receiver,
/// not the event, is the trouble) until the next answer.
#[derive(Debug, Default)]
pub(super) struct Receiver {
    away: bool,
    last_probe: Option<OffsetDateTime>,
}

/// What this instance may send now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Turn {
    /// Every due event, as slots allow.
    Due,
    /// One probe (the receiver seems away and the last probe is old enough).
    Probe,
    /// Nothing until the next probe.
    Wait,
}

impl Receiver {
    pub(super) fn away(&self) -> bool {
        self.away
    }

    /// The turn at `now`, probing once per `probe_every`; taking a probe starts the next
    /// period.
    pub(super) fn turn(&mut self, now: OffsetDateTime, probe_every: Duration) -> Turn {
        if !self.away() {
            return Turn::Due;
        }
        if self.last_probe.is_some_and(|at| now - at < probe_every) {
            return Turn::Wait;
        }
        self.last_probe = Some(now);
        Turn::Probe
    }

    /// It answered (2xx or a refusal of one event): it is there. True if it was away.
    pub(super) fn answered(&mut self) -> bool {
        std::mem::take(&mut self.away)
    }

    /// No answer, or "unavailable". True when this makes it count as away (the first probe
    /// then comes one period later).
    pub(super) fn unavailable(&mut self, now: OffsetDateTime) -> bool {
        if self.away {
            return false;
        }
        self.away = true;
        self.last_probe = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::PROBE_EVERY;
    use super::*;

    #[test]
    fn a_receiver_is_away_at_the_first_unavailable_answer_and_back_at_any_answer() {
        let now = OffsetDateTime::UNIX_EPOCH;
        let mut receiver = Receiver::default();
        assert_eq!(receiver.turn(now, PROBE_EVERY), Turn::Due);
        assert!(receiver.unavailable(now), "away at once");
        assert!(!receiver.unavailable(now), "already away");
        assert_eq!(receiver.turn(now, PROBE_EVERY), Turn::Wait);
        assert_eq!(receiver.turn(now + PROBE_EVERY, PROBE_EVERY), Turn::Probe);
        assert_eq!(
            receiver.turn(now + PROBE_EVERY + Duration::seconds(1), PROBE_EVERY),
            Turn::Wait
        );
        assert_eq!(
            receiver.turn(now + PROBE_EVERY * 2, PROBE_EVERY),
            Turn::Probe
        );
        assert!(receiver.answered(), "it was away");
        assert_eq!(receiver.turn(now + PROBE_EVERY * 2, PROBE_EVERY), Turn::Due);
    }
}
