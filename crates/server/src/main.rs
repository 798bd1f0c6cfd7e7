//! `social-login`: the command line entry point. It only parses and dispatches.

use clap::Parser;
use social_login::cli::{Cli, run};
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    // One TLS provider for every rustls user in the process (STYLE.md "Dependency facts").
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    run(Cli::parse()).await
}
