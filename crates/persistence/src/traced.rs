//! The traced span of a database transaction (`[telemetry]`): which database, and where in
//! this crate the transaction is written; never a statement's values.

use social_login_ports::TRACE_TARGET;
use std::panic::Location;

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
    )
}
