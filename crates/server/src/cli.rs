//! The command line (docs/api.md, "Command line"): serve, migrate, check-config, gen-secret,
//! gen-admin-key, healthcheck, webhooks dead, risc-registration, providers, and `demo` in
//! builds with the `demo` feature.

use crate::healthcheck;
use crate::server::{self, StartupError};
use crate::settings::{ConfigErrors, Settings, discovery_check};
use crate::telemetry;
use clap::{Parser, Subcommand};

pub(crate) mod args;

pub use args::{ConfigArg, DeadArgs};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "social-login", version, about = "Social login service")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service; applies pending database migrations first.
    Serve(ConfigArg),
    /// Zero-setup demo: SQLite, in-process state, a simulated identity provider for every
    /// provider, and a demo page at `/`.
    #[cfg(feature = "demo")]
    Demo(DemoArgs),
    /// Apply database migrations and exit.
    Migrate(ConfigArg),
    /// Validate the configuration, print every problem, exit non-zero if any.
    CheckConfig(ConfigArg),
    /// Print a fresh random secret_key.
    GenSecret,
    /// Print a new admin key for the operator API and the hash that goes in
    /// `[admin] api_keys`.
    GenAdminKey,
    /// GET a URL; exit 0 on a 2xx within 2 seconds, 1 otherwise (container health checks).
    Healthcheck(HealthcheckArgs),
    /// Webhook deliveries.
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// Print, as a shell script, the requests that register the Cross-Account Protection
    /// endpoint with Google (sends nothing).
    RiscRegistration(ConfigArg),
    /// Print every provider the service knows by name: key, name, kind, what its table must
    /// set, and whether its emails are trusted and why.
    Providers,
}

#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// List the events given up on (dead letters), or put them back in the queue.
    Dead(DeadArgs),
}

#[derive(Debug, clap::Args)]
pub struct HealthcheckArgs {
    /// The URL to probe.
    #[arg(long, value_name = "URL", default_value = healthcheck::DEFAULT_URL)]
    pub url: url::Url,
}

#[cfg(feature = "demo")]
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Address of the demo page and API.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    /// Where the demo keeps its SQLite database and secret.
    #[arg(long, value_name = "DIR", default_value = "social-login-demo")]
    pub data_dir: std::path::PathBuf,
}

pub async fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Providers => {
            print!("{}", crate::catalogue_listing::listing());
            ExitCode::SUCCESS
        }
        Command::GenSecret => {
            println!("{}", social_login_security::generate_secret_key());
            ExitCode::SUCCESS
        }
        Command::GenAdminKey => {
            let (key, hash) = social_login_security::generate_admin_key();
            println!("key:  {key}");
            println!("hash: {hash}");
            println!("# [admin] api_keys = [\"{hash}\"]; give the key to whoever runs support");
            ExitCode::SUCCESS
        }
        Command::Healthcheck(args) => {
            // Silent when healthy: health checkers keep the output of every probe.
            match healthcheck::probe(&args.url, healthcheck::TIMEOUT).await {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("unhealthy: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        #[cfg(feature = "demo")]
        Command::Demo(args) => {
            // Quiet by default: the demo talks to a person, not a log collector.
            telemetry::init_logging_at("warn");
            report(crate::demo::run(args.bind, &args.data_dir, server::shutdown_signal()).await)
        }
        Command::CheckConfig(arg) => check_config(&arg).await,
        Command::Migrate(arg) => {
            let Ok(settings) = load(&arg) else {
                return ExitCode::from(2);
            };
            telemetry::init_logging();
            report(server::migrate(&settings).await)
        }
        Command::Webhooks(WebhooksCommand::Dead(args)) => {
            let Ok(settings) = load(&args.config) else {
                return ExitCode::from(2);
            };
            crate::dead_letters::run(&settings, &args).await
        }
        Command::RiscRegistration(arg) => {
            let Ok(settings) = load(&arg) else {
                return ExitCode::from(2);
            };
            match crate::risc_registration::script(&settings) {
                Ok(script) => {
                    print!("{script}");
                    ExitCode::SUCCESS
                }
                Err(why) => {
                    eprintln!("{why}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Serve(arg) => {
            let Ok(settings) = load(&arg) else {
                return ExitCode::from(2);
            };
            let _tracing = match telemetry::init(&settings.telemetry) {
                Ok(tracing) => tracing,
                Err(error) => {
                    eprintln!("{error}");
                    return ExitCode::FAILURE;
                }
            };
            report(server::serve(&settings, server::shutdown_signal()).await)
        }
    }
}

/// Loads, validates and fetches the discovery document of every provider of kind `oidc`,
/// printing every problem of all three (the network ones even when the file has others).
async fn check_config(arg: &ConfigArg) -> ExitCode {
    let settings = match Settings::load(arg.config.as_deref()) {
        Ok(settings) => settings,
        Err(errors) => return invalid(&errors),
    };
    let mut errors = settings.validate_for_this_build().err().unwrap_or_default();
    errors.extend(discovery_check(&settings).await);
    if !errors.problems().is_empty() {
        return invalid(&errors);
    }
    for warning in settings.warnings() {
        eprintln!("warning: {warning}");
    }
    println!("configuration is valid");
    ExitCode::SUCCESS
}

/// Loads and validates, printing every problem; a bad configuration never starts.
fn load(arg: &ConfigArg) -> Result<Settings, ExitCode> {
    let loaded = Settings::load(arg.config.as_deref()).and_then(|settings| {
        settings.validate_for_this_build()?;
        Ok(settings)
    });
    loaded.map_err(|errors| invalid(&errors))
}

fn invalid(errors: &ConfigErrors) -> ExitCode {
    eprintln!("invalid configuration:");
    for problem in errors.problems() {
        eprintln!("  {problem}");
    }
    ExitCode::from(2)
}

fn report(result: Result<(), StartupError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "social-login stopped");
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
