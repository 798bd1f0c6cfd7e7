//! The traced span of a database transaction (`[telemetry]`): which database, and where in
//! this crate the transaction is written; never a statement's values.

use sea_orm::{DatabaseTransaction, DbErr};
use social_login_ports::TRACE_TARGET;
use std::ops::Deref;
use std::panic::Location;
use tracing::Instrument;

/// A span for one transaction on `system` (`postgresql`, `sqlite`), begun at `at`. Nothing
/// is made unless traces are exported.
pub(crate) fn transaction_span(
    system: &'static str,
    at: &'static Location<'static>,
) -> tracing::Span {
    tracing::info_span!(
        target: TRACE_TARGET,
        "db transaction",
        otel.name = "db transaction",
        otel.kind = "client",
        db.system.name = system,
        code.file.path = at.file(),
        code.line.number = at.line(),
        db.transaction.outcome = tracing::field::Empty,
    )
}

/// A sea-orm transaction with its traced span, which records how it ended (see
/// [`Outcome`]). Derefs to the transaction for the statements.
pub(crate) struct TracedTransaction {
    txn: DatabaseTransaction,
    outcome: Outcome,
}

impl TracedTransaction {
    pub(crate) fn new(txn: DatabaseTransaction, span: tracing::Span) -> Self {
        Self {
            txn,
            outcome: Outcome::of(span),
        }
    }

    pub(crate) async fn commit(self) -> Result<(), DbErr> {
        let Self { txn, outcome } = self;
        let commit = txn.commit().instrument(outcome.span.clone());
        outcome.commit(commit, Result::is_ok).await
    }
}

impl Deref for TracedTransaction {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

/// How far a transaction got, recorded on its span as `db.transaction.outcome` when this
/// goes out of scope: `committed`; `rolled_back` (it ended before committing, or its commit
/// failed); `unknown` (its caller gave up while the commit was under way, which may have
/// gone through).
pub(crate) struct Outcome {
    span: tracing::Span,
    reached: Reached,
}

#[derive(Clone, Copy)]
enum Reached {
    Open,
    Committing,
    Committed,
    RolledBack,
}

impl Outcome {
    pub(crate) fn of(span: tracing::Span) -> Self {
        Self {
            span,
            reached: Reached::Open,
        }
    }

    /// Awaits `commit` (the commit, or the one statement that is the transaction) and
    /// records how far it got: `committed` when it answers as `went_through` says, `unknown`
    /// should its caller give up while it is under way.
    pub(crate) async fn commit<R>(
        mut self,
        commit: impl Future<Output = R>,
        went_through: impl FnOnce(&R) -> bool,
    ) -> R {
        self.committing();
        let answer = commit.await;
        self.settled(went_through(&answer));
        answer
    }

    /// The commit (or the one statement that is the transaction) is under way.
    fn committing(&mut self) {
        self.reached = Reached::Committing;
    }

    /// The commit answered: it went through, or it did not.
    fn settled(&mut self, committed: bool) {
        self.reached = match committed {
            true => Reached::Committed,
            false => Reached::RolledBack,
        };
    }
}

impl Drop for Outcome {
    fn drop(&mut self) {
        let outcome = match self.reached {
            Reached::Committed => "committed",
            Reached::Open | Reached::RolledBack => "rolled_back",
            Reached::Committing => "unknown",
        };
        self.span.record("db.transaction.outcome", outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tracing::field::{Field, Visit};
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::{Context, SubscriberExt};

    /// The outcomes recorded on spans.
    #[derive(Clone, Default)]
    struct Recorded(Arc<Mutex<Vec<String>>>);

    impl<S: tracing::Subscriber> Layer<S> for Recorded {
        fn on_record(
            &self,
            _: &tracing::span::Id,
            values: &tracing::span::Record<'_>,
            _: Context<'_, S>,
        ) {
            values.record(&mut self.clone());
        }
    }

    impl Visit for Recorded {
        fn record_str(&mut self, field: &Field, value: &str) {
            if field.name() == "db.transaction.outcome" {
                self.0.lock().unwrap().push(value.to_owned());
            }
        }

        fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
    }

    /// What the span of a transaction that went through `steps` says.
    fn ended(steps: impl FnOnce(&mut Outcome)) -> Vec<String> {
        let recorded = Recorded::default();
        let subscriber = tracing_subscriber::registry().with(recorded.clone());
        tracing::subscriber::with_default(subscriber, || {
            let mut outcome = Outcome::of(transaction_span("sqlite", Location::caller()));
            steps(&mut outcome);
        });
        recorded.0.lock().unwrap().clone()
    }

    #[test]
    fn a_transaction_records_how_far_it_got() {
        assert_eq!(ended(|_| {}), ["rolled_back"], "ended before its commit");
        assert_eq!(
            ended(Outcome::committing),
            ["unknown"],
            "given up mid-commit"
        );
        let committed = |outcome: &mut Outcome| {
            outcome.committing();
            outcome.settled(true);
        };
        assert_eq!(ended(committed), ["committed"]);
        let failed = |outcome: &mut Outcome| {
            outcome.committing();
            outcome.settled(false);
        };
        assert_eq!(ended(failed), ["rolled_back"]);
    }
}
