//! `social-login-bench`: starts the real service (build it with `cargo build --release`
//! first) and the simulated identity provider on loopback, drives authorize and whole logins
//! (new and returning users) at each concurrency, and prints throughput, latency, the
//! service's CPU time per operation (utime + stime from /proc) and its memory. A
//! measurement, not a test: it asserts nothing.

mod flows;
mod load;
mod service;
mod setup;

use clap::{Parser, ValueEnum};
use flows::Flows;
use load::{Outcome, drive};
use service::Service;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scenario {
    /// GET authorize alone (issue a sealed state).
    Authorize,
    /// authorize → provider → callback for users the service has never seen.
    LoginNew,
    /// The same for users who logged in before.
    LoginReturning,
    /// The operator API on the seeded users (needs `--seed-users`): find one by email, by
    /// provider account, then read it; three requests an operation.
    AdminLookup,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum States {
    Memory,
    Redis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Database {
    Sqlite,
    /// A fresh database on TEST_POSTGRES_URL.
    Postgres,
}

#[derive(Debug, Parser)]
#[command(
    name = "social-login-bench",
    about = "Measure the real social-login service"
)]
struct Args {
    /// The service binary (a release build).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/release/social-login"))]
    binary: PathBuf,
    /// Where users live; `postgres` creates a fresh database on TEST_POSTGRES_URL.
    #[arg(long, value_enum, default_value = "sqlite")]
    database: Database,
    /// Where spent state ids live; `redis` reads TEST_REDIS_URL.
    #[arg(long, value_enum, default_value = "memory")]
    states: States,
    /// Service processes sharing the database and the state store; each login starts on
    /// one and finishes on the next.
    #[arg(long, default_value_t = 1)]
    instances: usize,
    /// Users (with their links) put in the database before the service starts.
    #[arg(long, default_value_t = 0)]
    seed_users: u64,
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "authorize,login-new,login-returning"
    )]
    scenarios: Vec<Scenario>,
    /// Concurrent clients, one run per value.
    #[arg(long, value_delimiter = ',', default_value = "1,16")]
    concurrency: Vec<usize>,
    /// Operations per authorize run.
    #[arg(long, default_value_t = 20_000)]
    authorize_requests: usize,
    /// Logins per login run.
    #[arg(long, default_value_t = 2_000)]
    logins: usize,
    /// Upper bound of each run, in seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Pin the service to this CPU (taskset); none to let it float.
    #[arg(long)]
    pin: Option<usize>,
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let args = Args::parse();
    let runs = args.concurrency.len();
    let setup = setup::Setup::new(
        args.logins * runs,
        args.seed_users,
        args.database,
        args.states,
    )
    .await?;
    let mut services = Vec::new();
    for _ in 0..args.instances.max(1) {
        services.push(Service::start(&args.binary, &setup.config, args.pin).await?);
    }
    let flows = Flows::new(services.iter().map(|s| s.base().to_owned()).collect());
    println!(
        "# social-login-bench: {:?} database ({} users seeded), {:?} state store, {} instance(s), pinned to {}\n",
        args.database,
        args.seed_users,
        args.states,
        services.len(),
        args.pin
            .map_or("no CPU".to_owned(), |cpu| format!("CPU {cpu}"))
    );
    for service in &services {
        println!(
            "ready {:.1} ms after start ({} database, migrations included); idle RSS {:.1} MiB",
            service.ready_after.as_secs_f64() * 1e3,
            if args.seed_users > 0 {
                "existing"
            } else {
                "fresh"
            },
            service.rss_mib()
        );
    }
    println!();
    println!(
        "| scenario | c | ops | failed | ops/s | p50 ms | p99 ms | service CPU ms/op | RSS MiB (largest instance) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let deadline = Duration::from_secs(args.seconds);
    for scenario in &args.scenarios {
        for (run, &concurrency) in args.concurrency.iter().enumerate() {
            let cpu_before = cpu_time(&services);
            let outcome = match scenario {
                Scenario::Authorize => {
                    let flows = flows.clone();
                    drive(
                        concurrency,
                        args.authorize_requests,
                        deadline,
                        move |index| {
                            let flows = flows.clone();
                            async move { flows.authorize(index).await.is_some() }
                        },
                    )
                    .await
                }
                // Run k logs in users k·logins … (k+1)·logins − 1: new in login-new, and
                // the same again, now known, in login-returning.
                // Seeded users spread over the whole table, never the same few.
                Scenario::AdminLookup => {
                    let (flows, seeded) = (flows.clone(), args.seed_users.max(1));
                    drive(concurrency, args.logins, deadline, move |index| {
                        let flows = flows.clone();
                        let n = (index as u64).wrapping_mul(7_919) % seeded;
                        async move { flows.admin_lookup(index, n).await }
                    })
                    .await
                }
                Scenario::LoginNew | Scenario::LoginReturning => {
                    let (flows, first) = (flows.clone(), run * args.logins);
                    drive(concurrency, args.logins, deadline, move |index| {
                        let flows = flows.clone();
                        async move { flows.login(index, &setup::user_id(first + index)).await }
                    })
                    .await
                }
            };
            let cpu = cpu_time(&services) - cpu_before;
            report(*scenario, concurrency, &outcome, cpu, &services);
        }
    }
    Ok(())
}

/// CPU time of every instance together.
fn cpu_time(services: &[Service]) -> Duration {
    services.iter().map(|service| service.cpu_time()).sum()
}

fn report(
    scenario: Scenario,
    concurrency: usize,
    outcome: &Outcome,
    cpu: Duration,
    services: &[Service],
) {
    let name = match scenario {
        Scenario::Authorize => "authorize",
        Scenario::LoginNew => "login, new user",
        Scenario::LoginReturning => "login, returning user",
        Scenario::AdminLookup => "admin: by email, by account, read",
    };
    let per_op = cpu.as_secs_f64() * 1e3 / outcome.completed.max(1) as f64;
    println!(
        "| {name} | {concurrency} | {} | {} | {:.0} | {:.3} | {:.3} | {per_op:.3} | {:.1} |",
        outcome.completed,
        outcome.failed,
        outcome.ops_per_second(),
        outcome.percentile(0.5).as_secs_f64() * 1e3,
        outcome.percentile(0.99).as_secs_f64() * 1e3,
        services.iter().map(Service::rss_mib).fold(0.0, f64::max),
    );
}
