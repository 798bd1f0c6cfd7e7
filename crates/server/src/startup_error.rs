//! Why the service did not start or stopped abnormally: the error every step of start-up
//! (configuration, database, providers, state store, listeners) answers with.

/// Why the service did not start or stopped abnormally. Messages never hold secrets.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("invalid configuration:\n{0}")]
    Config(crate::settings::ConfigErrors),
    #[error("database: {0}")]
    Database(String),
    #[error("provider: {0}")]
    Provider(String),
    #[error("oauth_state_store: {0}")]
    StateStore(String),
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: String,
        source: std::io::Error,
    },
    #[error("server: {0}")]
    Serve(std::io::Error),
}
