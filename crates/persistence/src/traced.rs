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

/// A sea-orm transaction with its traced span, which records how it ended
/// (`db.transaction.outcome`: `committed`, or `rolled_back` when it was dropped or its
/// commit failed). Derefs to the transaction for the statements.
pub(crate) struct TracedTransaction {
    txn: Option<DatabaseTransaction>,
    span: tracing::Span,
    committed: bool,
}

impl TracedTransaction {
    pub(crate) fn new(txn: DatabaseTransaction, span: tracing::Span) -> Self {
        Self {
            txn: Some(txn),
            span,
            committed: false,
        }
    }

    pub(crate) async fn commit(mut self) -> Result<(), DbErr> {
        let Some(txn) = self.txn.take() else {
            return Ok(());
        };
        let committed = txn.commit().instrument(self.span.clone()).await;
        self.committed = committed.is_ok();
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

impl Drop for TracedTransaction {
    fn drop(&mut self) {
        record_outcome(&self.span, self.committed);
    }
}

/// How the transaction of `span` ended: `committed`, or `rolled_back` (nothing written).
pub(crate) fn record_outcome(span: &tracing::Span, committed: bool) {
    let outcome = if committed {
        "committed"
    } else {
        "rolled_back"
    };
    span.record("db.transaction.outcome", outcome);
}
