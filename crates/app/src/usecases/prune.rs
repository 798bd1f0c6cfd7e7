//! Housekeeping in bounded batches: short statements, short locks.

use std::future::Future;

/// Rows per pruning statement.
const PRUNE_BATCH: u64 = 1_000;
/// Batches per pruning run; the next run picks up whatever is left.
const PRUNE_MAX_BATCHES: usize = 100;

/// When a pruning run has reached the end of what is due.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LastBatch {
    /// A batch that deleted fewer than [`PRUNE_BATCH`] rows: one statement of one kind of
    /// row.
    Short,
    /// A batch that deleted nothing: a statement that deletes several kinds of row, each up
    /// to [`PRUNE_BATCH`], so a short count does not say none is left.
    Empty,
}

/// Runs `batch` with [`PRUNE_BATCH`] as its limit until `last` says nothing is left, at most
/// [`PRUNE_MAX_BATCHES`] times. Returns how many rows went.
pub(crate) async fn in_batches<E, Batch>(
    mut batch: impl FnMut(u64) -> Batch,
    last: LastBatch,
) -> Result<u64, E>
where
    Batch: Future<Output = Result<u64, E>>,
{
    let mut pruned = 0;
    for _ in 0..PRUNE_MAX_BATCHES {
        let went = batch(PRUNE_BATCH).await?;
        pruned += went;
        let done = match last {
            LastBatch::Short => went < PRUNE_BATCH,
            LastBatch::Empty => went == 0,
        };
        if done {
            break;
        }
    }
    Ok(pruned)
}
