//! Webhook delivery on the fakes, under a fake clock: each event on its own schedule, dead
//! letters, the probes of an away receiver, concurrency slots and the outbox's upkeep.

use crate::world::{World, github_login};
use async_trait::async_trait;
use social_login_app::webhooks::{DEAD_AFTER, PROBE_EVERY};
use social_login_app::{
    AuthPolicy, DeadLetters, DeliveryLimits, DeliveryPace, DeliveryStep, WebhookDelivery,
};
use social_login_domain::{AuditEvent, AuditEventId, AuditEventType, EventSet};
use social_login_ports::{Claim, Clock, DeliveryError, OutboxCounts, WebhookOutbox, WebhookSender};
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// How the fake receiver answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Accept,
    /// 403 to events of this type (a WAF that dislikes their content), 2xx to the rest.
    Refuse(AuditEventType),
    /// No answer at all.
    Away,
}

struct Receiver {
    mode: Mutex<Mode>,
    accepted: Mutex<Vec<AuditEventId>>,
    requests: Mutex<u32>,
}

impl Receiver {
    fn new(mode: Mode) -> Arc<Self> {
        Arc::new(Self {
            mode: Mutex::new(mode),
            accepted: Mutex::default(),
            requests: Mutex::default(),
        })
    }

    fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    fn requests(&self) -> u32 {
        *self.requests.lock().unwrap()
    }

    fn accepted(&self) -> Vec<AuditEventId> {
        self.accepted.lock().unwrap().clone()
    }
}

#[async_trait]
impl WebhookSender for Receiver {
    async fn send(&self, event: &AuditEvent, _: OffsetDateTime) -> Result<(), DeliveryError> {
        *self.requests.lock().unwrap() += 1;
        match *self.mode.lock().unwrap() {
            Mode::Away => Err(DeliveryError::Unavailable("connection refused".into())),
            Mode::Refuse(kind) if kind == event.kind => Err(DeliveryError::Refused(403)),
            _ => {
                self.accepted.lock().unwrap().push(event.id);
                Ok(())
            }
        }
    }
}

fn delivering(mode: Mode, limits: DeliveryLimits) -> (World, Arc<Receiver>, WebhookDelivery) {
    let world = World::with_policy(AuthPolicy {
        webhook_events: EventSet::all(),
        ..AuthPolicy::default()
    });
    let receiver = Receiver::new(mode);
    let delivery = WebhookDelivery::new(
        world.users.clone(),
        receiver.clone(),
        world.clock.clone(),
        limits,
    );
    (world, receiver, delivery)
}

/// Signs in a new user for each number: two events each (registered, login).
async fn sign_ins(world: &World, users: std::ops::Range<usize>) {
    for n in users {
        world
            .login_with(github_login(
                &format!("gh-{n}"),
                &format!("u{n}@example.com"),
            ))
            .await;
    }
}

/// Claims into `slots` and attempts each; the steps.
async fn round(delivery: &WebhookDelivery, slots: u32) -> Vec<DeliveryStep> {
    let mut steps = Vec::new();
    for attempt in delivery.claim(slots).await.unwrap() {
        steps.push(delivery.attempt(attempt).await.unwrap());
    }
    steps
}

async fn counts(world: &World) -> OutboxCounts {
    world.users.counts().await.unwrap()
}

#[tokio::test]
async fn an_event_the_receiver_refuses_waits_for_its_own_retry_and_holds_back_nothing() {
    let refused = Mode::Refuse(AuditEventType::UserRegistered);
    let (world, receiver, delivery) = delivering(refused, DeliveryLimits::default());
    sign_ins(&world, 0..1).await;

    assert_eq!(
        delivery.deliver_next().await.unwrap(),
        DeliveryStep::RetryLater
    );
    assert_eq!(
        delivery.deliver_next().await.unwrap(),
        DeliveryStep::Delivered
    );
    sign_ins(&world, 1..3).await;
    use DeliveryStep::{Delivered, RetryLater};
    assert_eq!(
        round(&delivery, 8).await,
        [RetryLater, Delivered, RetryLater, Delivered],
        "the new logins go out; each new registration is refused on its own"
    );
    assert_eq!(receiver.accepted().len(), 3);
    world.clock.advance(Duration::seconds(1));
    assert!(round(&delivery, 8).await.is_empty(), "not due yet");
    world.clock.advance(Duration::seconds(1));
    assert_eq!(round(&delivery, 8).await, [DeliveryStep::RetryLater; 3]);
    assert!(!delivery.receiver_away(), "a refusal is an answer");
}

#[tokio::test]
async fn an_event_refused_max_attempts_times_is_a_dead_letter_until_redelivered() {
    let limits = DeliveryLimits {
        max_attempts: 3,
        ..DeliveryLimits::default()
    };
    let refused = Mode::Refuse(AuditEventType::UserRegistered);
    let (world, receiver, delivery) = delivering(refused, limits);
    sign_ins(&world, 0..1).await;
    assert_eq!(round(&delivery, 8).await.len(), 2);
    for attempts in 1..3 {
        world.clock.advance(limits.pace.retry_delay(attempts));
        let expected = if attempts == 2 {
            DeliveryStep::DeadLettered
        } else {
            DeliveryStep::RetryLater
        };
        assert_eq!(round(&delivery, 8).await, [expected]);
    }
    world.clock.advance(Duration::days(1));
    assert!(round(&delivery, 8).await.is_empty(), "never claimed again");
    assert_eq!(
        counts(&world).await,
        OutboxCounts {
            pending: 0,
            dead: 1
        }
    );

    let dead_letters = DeadLetters::new(world.users.clone(), world.clock.clone());
    let (listed, _) = dead_letters.list(10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].event.kind, AuditEventType::UserRegistered);
    assert_eq!(listed[0].attempts, 3);
    assert_eq!(
        listed[0].last_error.as_deref(),
        Some("receiver answered 403")
    );

    receiver.set(Mode::Accept);
    assert!(dead_letters.redeliver(listed[0].event.id).await.unwrap());
    assert_eq!(
        delivery.deliver_next().await.unwrap(),
        DeliveryStep::Delivered
    );
    assert_eq!(counts(&world).await, OutboxCounts::default());
}

#[tokio::test]
async fn an_event_failing_for_three_days_is_a_dead_letter_and_the_next_goes_out() {
    let refused = Mode::Refuse(AuditEventType::UserRegistered);
    let (world, receiver, delivery) = delivering(refused, DeliveryLimits::default());
    sign_ins(&world, 0..1).await;
    assert_eq!(round(&delivery, 8).await.len(), 2);
    world.clock.advance(DEAD_AFTER);
    assert_eq!(round(&delivery, 8).await, [DeliveryStep::DeadLettered]);
    sign_ins(&world, 1..2).await;
    receiver.set(Mode::Accept);
    assert_eq!(round(&delivery, 8).await, [DeliveryStep::Delivered; 2]);
    assert_eq!(
        counts(&world).await,
        OutboxCounts {
            pending: 0,
            dead: 1
        }
    );
}

#[tokio::test]
async fn while_the_receiver_is_away_one_uncounted_probe_goes_out_every_five_seconds() {
    let (world, receiver, delivery) = delivering(Mode::Away, DeliveryLimits::default());
    sign_ins(&world, 0..2).await;
    assert_eq!(round(&delivery, 8).await, [DeliveryStep::RetryLater; 4]);
    assert!(delivery.receiver_away());
    assert_eq!(receiver.requests(), 4);

    // Every event is due again after 2 s, but only probes go out, one per period.
    for _ in 0..20 {
        world.clock.advance(Duration::seconds(1));
        round(&delivery, 8).await;
    }
    assert_eq!(receiver.requests(), 4 + 4, "one probe per 5 s for 20 s");
    let waiting = world
        .users
        .claim_probe(Claim::new(world.clock.now(), Duration::seconds(1)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(waiting.attempts, 1, "failed probes do not count");

    receiver.set(Mode::Accept);
    world.clock.advance(PROBE_EVERY);
    assert_eq!(
        round(&delivery, 8).await,
        [DeliveryStep::Delivered],
        "the probe"
    );
    assert!(!delivery.receiver_away());
    world.clock.advance(Duration::seconds(2));
    let steps = round(&delivery, 8).await;
    assert_eq!(steps, [DeliveryStep::Delivered; 3], "the rest, all at once");
    assert_eq!(counts(&world).await, OutboxCounts::default());
}

#[tokio::test]
async fn three_instances_probe_an_away_receiver_once_per_period_between_them() {
    let (world, receiver, first) = delivering(Mode::Away, DeliveryLimits::default());
    let others: Vec<WebhookDelivery> = (0..2)
        .map(|_| {
            let clock: Arc<dyn Clock> = world.clock.clone();
            WebhookDelivery::new(world.users.clone(), receiver.clone(), clock, first.limits())
        })
        .collect();
    sign_ins(&world, 0..3).await;
    // Each instance claims two events and finds the receiver away.
    for instance in std::iter::once(&first).chain(&others) {
        assert_eq!(round(instance, 2).await, [DeliveryStep::RetryLater; 2]);
        assert!(
            instance.receiver_away(),
            "away at the first unavailable answer"
        );
    }
    assert_eq!(receiver.requests(), 6);
    for _ in 0..20 {
        world.clock.advance(Duration::seconds(1));
        for instance in std::iter::once(&first).chain(&others) {
            round(instance, 8).await;
        }
    }
    assert_eq!(
        receiver.requests(),
        6 + 4,
        "one probe per 5 s for 20 s, not one per instance"
    );
}

#[tokio::test]
async fn a_faster_pace_retries_and_probes_on_its_own_periods() {
    let pace = DeliveryPace {
        first_retry: Duration::milliseconds(100),
        probe_every: Duration::milliseconds(250),
        ..DeliveryPace::default()
    };
    let limits = DeliveryLimits {
        pace,
        ..DeliveryLimits::default()
    };
    let refused = Mode::Refuse(AuditEventType::UserRegistered);
    let (world, receiver, delivery) = delivering(refused, limits);
    sign_ins(&world, 0..1).await;
    use DeliveryStep::{Delivered, RetryLater};
    assert_eq!(round(&delivery, 8).await, [RetryLater, Delivered]);
    world.clock.advance(Duration::milliseconds(100));
    assert_eq!(round(&delivery, 8).await, [RetryLater], "due after 100 ms");
    receiver.set(Mode::Away);
    world.clock.advance(Duration::milliseconds(200));
    assert_eq!(round(&delivery, 8).await, [RetryLater], "then after 200 ms");
    assert!(delivery.receiver_away());

    // Two rounds per period: a probe in every round would be eight.
    for _ in 0..8 {
        world.clock.advance(Duration::milliseconds(125));
        round(&delivery, 8).await;
    }
    assert_eq!(
        receiver.requests(),
        4 + 4,
        "one probe per 250 ms for a second"
    );
}

#[tokio::test]
async fn a_claim_takes_no_more_events_than_there_are_free_slots() {
    let (world, receiver, delivery) = delivering(Mode::Accept, DeliveryLimits::default());
    sign_ins(&world, 0..3).await;
    assert!(delivery.claim(0).await.unwrap().is_empty());
    let first = delivery.claim(4).await.unwrap();
    assert_eq!(first.len(), 4);
    let rest = delivery.claim(4).await.unwrap();
    assert_eq!(rest.len(), 2, "the claimed four are not handed out again");
    for attempt in first.into_iter().chain(rest) {
        delivery.attempt(attempt).await.unwrap();
    }
    assert_eq!(receiver.accepted().len(), 6);
}

#[tokio::test]
async fn upkeep_dead_letters_old_events_and_holds_the_outbox_to_its_bound() {
    let limits = DeliveryLimits {
        max_pending: 3,
        ..DeliveryLimits::default()
    };
    let (world, _, delivery) = delivering(Mode::Away, limits);
    sign_ins(&world, 0..1).await;
    world.clock.advance(Duration::seconds(1));
    sign_ins(&world, 1..3).await;
    let counts_now = delivery.maintain().await.unwrap();
    assert_eq!(
        counts_now,
        OutboxCounts {
            pending: 3,
            dead: 3
        }
    );
    let dead_letters = DeadLetters::new(world.users.clone(), world.clock.clone());
    let (listed, _) = dead_letters.list(10).await.unwrap();
    assert!(
        listed
            .iter()
            .all(|letter| letter.last_error.as_deref() == Some("outbox full"))
    );
    assert!(
        listed[..2]
            .iter()
            .all(|letter| letter.event.user_id == listed[0].event.user_id),
        "the oldest went first"
    );

    world.clock.advance(DEAD_AFTER + Duration::seconds(1));
    let later = delivery.maintain().await.unwrap();
    assert_eq!(
        later,
        OutboxCounts {
            pending: 0,
            dead: 3
        },
        "six dead letters, held to the bound too: the first three to die are forgotten"
    );
    let (kept, _) = dead_letters.list(10).await.unwrap();
    assert!(
        kept.iter()
            .all(|letter| letter.last_error.as_deref() == Some("not delivered within 3 days")),
        "those that died last stay"
    );
    assert_eq!(dead_letters.redeliver_all().await.unwrap(), 3);
    assert_eq!(
        counts(&world).await,
        OutboxCounts {
            pending: 3,
            dead: 0
        }
    );
    // Redelivered events get their three days again: the next upkeep leaves them.
    world.clock.advance(Duration::seconds(5));
    assert_eq!(
        delivery.maintain().await.unwrap(),
        OutboxCounts {
            pending: 3,
            dead: 0
        }
    );
}
