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

/// What a repository port answers: its value, or the storage's failure.
pub type RepoResult<T> = Result<T, RepositoryError>;

/// The unique rule an insert of a write plan lost to a concurrent request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// Another user claims the email (case-insensitive).
    Email,
    /// The provider account is linked already.
    ProviderAccount,
    /// The user has a link of this provider already.
    UserProvider,
}

/// Applying a write plan (`domain::plan`) failed: nothing of it was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// A unique constraint was lost to a concurrent request.
    #[error("already taken: {0:?}")]
    Taken(Taken),
    /// A row the plan changes or refers to is gone (a link since removed or disabled, a
    /// user since deleted).
    #[error("a row the plan needs is gone")]
    Gone,
    /// An operator locked the user since the decision read it: no session of theirs
    /// starts (the lock's end of every session must not miss one starting meanwhile).
    #[error("the user is locked")]
    Locked,
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl PlanError {
    /// A plan's outcome where a row gone meanwhile means "nothing to write" (`false`), not a
    /// failure: a renewal or a refresh of a link removed since it was read.
    pub fn written_unless_gone(applied: Result<(), PlanError>) -> RepoResult<bool> {
        match applied {
            Err(PlanError::Gone) => Ok(false),
            applied => applied.map(|()| true).map_err(RepositoryError::from),
        }
    }
}

/// Where no concurrent write can take a plan's rows (they were read under the user's lock),
/// a conflict is the storage's failure.
impl From<PlanError> for RepositoryError {
    fn from(error: PlanError) -> Self {
        match error {
            PlanError::Repository(error) => error,
            conflict => Self::Internal(conflict.to_string()),
        }
    }
}
