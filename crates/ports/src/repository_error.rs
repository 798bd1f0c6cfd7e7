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
