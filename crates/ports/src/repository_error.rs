//! The storage's own failure, shared by every repository port.

/// The storage failed. `Unavailable` (cannot connect, pool exhausted) is 503 to the
/// client, `Internal` is 500. The message is for logs only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RepositoryError {
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    #[error("storage failure: {0}")]
    Internal(String),
}

/// Applying a write plan (`domain::plan`) failed: nothing of it was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// A unique constraint was lost to a concurrent request, or a row the plan changes is
    /// gone: the rule must decide again on what is stored now.
    #[error("raced with a concurrent write")]
    Conflict,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Where no concurrent write can take a plan's rows (they were read under the user's lock),
/// a conflict is the storage's failure.
impl From<PlanError> for RepositoryError {
    fn from(error: PlanError) -> Self {
        match error {
            PlanError::Conflict => Self::Internal("a write plan conflicted".into()),
            PlanError::Repository(error) => error,
        }
    }
}
