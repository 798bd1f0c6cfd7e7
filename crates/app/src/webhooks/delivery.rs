//! Claiming events from the outbox and attempting each once: the schedule, the probes of an
//! away receiver, and the dead letters.

use super::receiver::{Receiver, Turn};
use super::{DEAD_AFTER, DeliveryLimits, DeliveryStep, LEASE};
use crate::AppResult;
use social_login_domain::AuditEvent;
use social_login_ports::{
    Claim, Clock, DeliveryError, Failure, PendingDelivery, WebhookOutbox, WebhookSender,
};
use std::sync::{Arc, Mutex, MutexGuard};
use tracing::{info, warn};

/// One claimed event, and whether it probes a receiver that seemed away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pending: PendingDelivery,
    probe: bool,
}

impl Attempt {
    pub fn event(&self) -> &AuditEvent {
        &self.pending.event
    }

    pub fn is_probe(&self) -> bool {
        self.probe
    }
}

/// The outbox, the sender, the clock and the bounds; cheap to clone (clones share what this
/// instance knows of the receiver).
#[derive(Clone)]
pub struct WebhookDelivery {
    pub(super) outbox: Arc<dyn WebhookOutbox>,
    sender: Arc<dyn WebhookSender>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) limits: DeliveryLimits,
    receiver: Arc<Mutex<Receiver>>,
}

impl WebhookDelivery {
    pub fn new(
        outbox: Arc<dyn WebhookOutbox>,
        sender: Arc<dyn WebhookSender>,
        clock: Arc<dyn Clock>,
        limits: DeliveryLimits,
    ) -> Self {
        Self {
            outbox,
            sender,
            clock,
            limits,
            receiver: Arc::default(),
        }
    }

    pub fn limits(&self) -> DeliveryLimits {
        self.limits
    }

    /// Whether this instance holds the receiver for away (and only probes it).
    pub fn receiver_away(&self) -> bool {
        self.receiver().away()
    }

    fn receiver(&self) -> MutexGuard<'_, Receiver> {
        // The state is a flag and a time, valid whatever a panicking holder left.
        self.receiver.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Claims what to send now into at most `slots` free slots: the due events, soonest
    /// first; while the receiver seems away, one probe per period across every instance
    /// (the outbox keeps the receiver's turn) and nothing else.
    pub async fn claim(&self, slots: u32) -> AppResult<Vec<Attempt>> {
        if slots == 0 {
            return Ok(Vec::new());
        }
        let now = self.clock.now();
        let turn = self.receiver().turn(now, self.limits.pace.probe_every);
        let (claimed, probe) = match turn {
            Turn::Wait => return Ok(Vec::new()),
            Turn::Due => (
                self.outbox.claim_due(Claim::new(now, LEASE), slots).await?,
                false,
            ),
            Turn::Probe => {
                // This instance's turn; another may have taken the receiver's meanwhile.
                let next = now + self.limits.pace.probe_every;
                if !self.outbox.take_probe_turn(now, next).await? {
                    return Ok(Vec::new());
                }
                let probe = self.outbox.claim_probe(Claim::new(now, LEASE)).await?;
                (probe.into_iter().collect(), true)
            }
        };
        Ok(claimed
            .into_iter()
            .map(|pending| Attempt { pending, probe })
            .collect())
    }

    /// Claims one event and attempts it (tests and simple callers).
    pub async fn deliver_next(&self) -> AppResult<DeliveryStep> {
        match self.claim(1).await?.pop() {
            Some(attempt) => self.attempt(attempt).await,
            None => Ok(DeliveryStep::Idle),
        }
    }

    /// Sends one claimed event once and records the outcome in the outbox.
    pub async fn attempt(&self, attempt: Attempt) -> AppResult<DeliveryStep> {
        let Attempt { pending, probe } = attempt;
        let event = &pending.event;
        let outcome = self.sender.send(event, self.clock.now()).await;
        let done = self.clock.now();
        let (error, counted) = match outcome {
            Ok(()) => {
                if self.receiver().answered() {
                    info!("webhook receiver is back; delivering");
                }
                let claim = Some(pending.claimed_until);
                self.outbox.remove(event.id, claim).await?;
                count_attempt("delivered");
                info!(event = %event.id, kind = %event.kind, "webhook delivered");
                return Ok(DeliveryStep::Delivered);
            }
            Err(error @ DeliveryError::Refused(_)) => {
                self.receiver().answered();
                count_attempt("refused");
                (error, true)
            }
            Err(error @ DeliveryError::Unavailable(_)) => {
                if self.receiver().unavailable(done) {
                    let every = self.limits.pace.probe_every;
                    warn!(%error, %every, "webhook receiver unavailable; probing it");
                }
                count_attempt("unavailable");
                // A probe that finds it still away says nothing about this event.
                (error, !probe)
            }
        };
        let attempts = pending.attempts.saturating_add(u32::from(counted));
        let failure =
            Failure::new(event.id, attempts, &error.to_string()).under_claim(pending.claimed_until);
        let reason = if attempts >= self.limits.max_attempts {
            Some("attempts")
        } else if done - pending.queued_at() >= DEAD_AFTER {
            Some("age")
        } else {
            None
        };
        if let Some(reason) = reason {
            self.outbox.dead_letter(failure, done).await?;
            dead_lettered(reason, 1);
            warn!(event = %event.id, kind = %event.kind, %error, attempts, reason,
                "webhook event dead-lettered");
            return Ok(DeliveryStep::DeadLettered);
        }
        let at = done + self.limits.pace.retry_delay(attempts);
        self.outbox.retry_at(failure, at).await?;
        warn!(event = %event.id, kind = %event.kind, %error, attempts, probe,
            "webhook delivery failed; will retry");
        Ok(DeliveryStep::RetryLater)
    }
}

fn count_attempt(outcome: &'static str) {
    metrics::counter!("social_login_webhook_deliveries_total", "outcome" => outcome).increment(1);
}

pub(super) fn dead_lettered(reason: &'static str, count: u64) {
    metrics::counter!("social_login_webhook_dead_letters_total", "reason" => reason)
        .increment(count);
}
