//! The arguments that several commands share, and those of `webhooks dead`, which its own
//! module runs.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ConfigArg {
    /// Configuration file. Default: $SOCIAL_LOGIN_CONFIG, then ./social-login.toml.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct DeadArgs {
    #[command(flatten)]
    pub config: ConfigArg,
    /// Put this dead letter (its event id) back in the queue, due now, attempts reset.
    #[arg(long, value_name = "ID", conflicts_with = "all")]
    pub redeliver: Option<uuid::Uuid>,
    /// Put every dead letter back in the queue.
    #[arg(long)]
    pub all: bool,
}
