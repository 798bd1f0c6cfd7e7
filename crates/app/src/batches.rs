//! Work in bounded batches: short statements, short locks.

use std::future::Future;

/// Rows per statement.
pub(crate) const BATCH: u64 = 1_000;
/// Batches per pruning run; the next run picks up whatever is left.
pub(crate) const PRUNE_MAX_BATCHES: u32 = 100;

/// When a run has reached the end of what is due.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LastBatch {
    /// A batch that went through fewer than [`BATCH`] rows: one statement of one kind of
    /// row.
    Short,
    /// A batch that went through none: a statement that deletes several kinds of row, each
    /// up to [`BATCH`], so a short count does not say none is left.
    Empty,
}

/// Runs `batch` with [`BATCH`] as its limit until `last` says nothing is left, at most
/// `max_batches` times. Returns how many rows it went through.
pub(crate) async fn in_batches<E, Batch>(
    mut batch: impl FnMut(u64) -> Batch,
    last: LastBatch,
    max_batches: u32,
) -> Result<u64, E>
where
    Batch: Future<Output = Result<u64, E>>,
{
    let mut total = 0;
    for _ in 0..max_batches {
        let went = batch(BATCH).await?;
        total += went;
        let done = match last {
            LastBatch::Short => went < BATCH,
            LastBatch::Empty => went == 0,
        };
        if done {
            break;
        }
    }
    Ok(total)
}
