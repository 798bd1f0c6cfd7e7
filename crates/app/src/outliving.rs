//! Work that must finish once begun, whatever becomes of the request that began it: a
//! provider call whose answer is the only one there will be (a rotated refresh token, the
//! revocation of a grant no row keeps any more).

use std::future::Future;
use tokio::task::JoinHandle;
use tracing::Instrument;

/// `work` on a task of its own, in the current span (its logs keep the request's context):
/// a client that leaves, or the request's deadline, drops only the handle, not the work.
pub(crate) fn outliving<F>(work: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    tokio::spawn(work.in_current_span())
}
