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
    txn: Option<DatabaseTransaction>,
    outcome: Outcome,
}

impl TracedTransaction {
    pub(crate) fn new(txn: DatabaseTransaction, span: tracing::Span) -> Self {
        Self {
            txn: Some(txn),
            outcome: Outcome::of(span),
        }
    }

    pub(crate) async fn commit(mut self) -> Result<(), DbErr> {
        let Some(txn) = self.txn.take() else {
            return Ok(());
        };
        let committed = txn.commit().instrument(self.outcome.span.clone()).await;
        if committed.is_ok() {
            self.outcome.committed();
        }
        committed
    }
}

impl Deref for TracedTransaction {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        // Only `commit` takes it, and that consumes `self`.
        self.txn.as_ref().expect("a transaction until it commits")
    }
}

/// Records on a transaction's span how it ended when it goes out of scope:
/// `db.transaction.outcome` is `committed` once [`Outcome::committed`] was called, else
/// `rolled_back` (an early return, an error, a dropped future: no commit answered success).
pub(crate) struct Outcome {
    span: tracing::Span,
    committed: bool,
}

impl Outcome {
    pub(crate) fn of(span: tracing::Span) -> Self {
        Self {
            span,
            committed: false,
        }
    }

    pub(crate) fn committed(&mut self) {
        self.committed = true;
    }
}

impl Drop for Outcome {
    fn drop(&mut self) {
        record_outcome(&self.span, self.committed);
    }
}

/// How the transaction of `span` ended: `committed`, or `rolled_back`.
pub(crate) fn record_outcome(span: &tracing::Span, committed: bool) {
    let outcome = if committed {
        "committed"
    } else {
        "rolled_back"
    };
    span.record("db.transaction.outcome", outcome);
}
