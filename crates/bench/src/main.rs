//! `social-login-bench`: starts the real service (build it with `cargo build --release`
//! first) and the simulated identity provider on loopback, drives authorize and whole logins
//! (new and returning users) at each concurrency, and prints throughput, latency, the
//! service's CPU time per operation (utime + stime from /proc), its memory, its heap
//! allocations per operation (`--count-allocations`) and its round trips to PostgreSQL per
//! operation. A measurement, not a test: it asserts no figure, but exits non-zero when an
//! operation failed (CI runs it with tiny counts as a smoke).

mod allocations;
mod chains;
mod flows;
mod load;
mod native;
mod relay;
mod report;
mod round_trips;
mod service;
mod setup;
mod storage;

use chains::Chains;
use clap::{Parser, ValueEnum};
use flows::Flows;
use load::drive;
use native::IdTokens;
use relay::RelayTarget;
use report::{Counts, report};
use round_trips::RoundTrips;
use service::{Service, allocations, cpu_time, peak_rss_mib};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scenario {
    /// GET authorize alone (issue a sealed state).
    Authorize,
    /// authorize → provider → callback for users the service has never seen.
    LoginNew,
    /// The same for users who logged in before.
    LoginReturning,
    /// `POST /auth/refresh`, each client following its own rotating chain (one session per
    /// client, begun by a login before the run).
    Refresh,
    /// Native sign-in (`/auth/oauth/google/id-token`) of returning users, each id_token with
    /// a nonce of its own.
    IdToken,
    /// The operator API on the seeded users (needs `--seed-users`): find one by email, by
    /// provider account, then read it; three requests an operation.
    AdminLookup,
    /// `GET /me` of the simulated GitHub API, called directly with the provider's token:
    /// the baseline of `relay`.
    ApiDirect,
    /// The same call through the service's relay, with the user's access token.
    Relay,
    /// `--stream-bytes` answers through the relay, `--concurrency` at once: the service's
    /// memory while it streams them (its peak is printed after the table).
    RelayStream,
    /// The whole audit trail (`--seed-events` of them) streamed as NDJSON by the operator
    /// API, `--concurrency` streams at once: its memory (the peak is printed too).
    EventsStream,
}

/// The Google accounts the `id-token` scenario signs in with, in turn: few, so nearly every
/// sign-in is a returning user's.
const NATIVE_USERS: usize = 100;

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
    /// Refreshes per `refresh` run.
    #[arg(long, default_value_t = 20_000)]
    refreshes: usize,
    /// Sign-ins per `id-token` run (their id_tokens are signed before it).
    #[arg(long, default_value_t = 5_000)]
    id_tokens: usize,
    /// Upper bound of each run, in seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Pin the service to this CPU (taskset); none to let it float.
    #[arg(long)]
    pin: Option<usize>,
    /// Run the service as this binary, which counts its heap allocations (instead of
    /// `--binary`); its CPU figures then include the counting.
    #[arg(long)]
    count_allocations: bool,
    /// Calls per relay run (`api-direct`, `relay`); a `relay-stream` run makes twice its
    /// concurrency.
    #[arg(long, default_value_t = 4_000)]
    relay_calls: usize,
    /// Audit events put in the database before the service starts (`events-stream`).
    #[arg(long, default_value_t = 0)]
    seed_events: u64,
    /// Size of each `relay-stream` answer.
    #[arg(long, default_value_t = 10 * 1024 * 1024)]
    stream_bytes: u64,
    /// Enable every preset too (the client registration alone, a per-tenant one with its
    /// tenant): what start-up, memory and each operation cost with the whole catalogue on.
    #[arg(long)]
    presets: bool,
    /// Export traces (`[telemetry]`) to a collector in the benchmark that keeps nothing:
    /// what tracing every request costs.
    #[arg(long)]
    telemetry: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    if allocations::is_service_command() {
        return allocations::serve().await;
    }
    match bench(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("social-login-bench: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn bench(args: Args) -> Result<(), String> {
    let runs = args.concurrency.len();
    // After the logins' users: the relay scenarios' user, then one per refresh chain.
    let chain_users = args.logins * runs + 1;
    let most_concurrent = args.concurrency.iter().copied().max().unwrap_or(1);
    let setup = setup::Setup::new(
        chain_users + most_concurrent,
        (args.seed_users, args.seed_events),
        (args.database, args.states),
        (args.presets, args.telemetry),
    )
    .await?;
    let binary = if args.count_allocations {
        std::env::current_exe().map_err(|error| error.to_string())?
    } else {
        args.binary.clone()
    };
    let mut services = Vec::new();
    for _ in 0..args.instances.max(1) {
        services.push(Service::start(&binary, &setup.config, args.pin).await?);
    }
    let flows = Flows::new(services.iter().map(|s| s.base().to_owned()).collect());
    let relay = RelayTarget::prepare(
        &flows,
        &setup.api_base(),
        &setup::user_id(args.logins * runs),
        || setup.issued_access_tokens(),
        args.stream_bytes,
    )
    .await?;
    let relay = std::sync::Arc::new(relay);
    println!(
        "# social-login-bench: {:?} database ({} users seeded), {:?} state store, {} instance(s), {}{}, pinned to {}\n",
        args.database,
        args.seed_users,
        args.states,
        services.len(),
        if args.presets {
            "every preset enabled"
        } else {
            "GitHub and Google"
        },
        if args.telemetry {
            ", traces exported"
        } else {
            ""
        },
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
        "| scenario | c | ops | failed | ops/s | p50 ms | p99 ms | service CPU µs/op | allocations/op | PostgreSQL round trips/op (of which pool checks) | RSS MiB (largest instance) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let deadline = Duration::from_secs(args.seconds);
    let mut failed = 0;
    let mut streamed = Vec::new();
    for scenario in &args.scenarios {
        for (run, &concurrency) in args.concurrency.iter().enumerate() {
            // Prepared before the measured part: their logins and signatures are not the run's.
            let chains = match scenario {
                Scenario::Refresh => Some(std::sync::Arc::new(
                    Chains::start(&flows, chain_users, concurrency).await?,
                )),
                _ => None,
            };
            let id_tokens = match scenario {
                Scenario::IdToken => Some(std::sync::Arc::new(IdTokens::mint(
                    &setup,
                    NATIVE_USERS,
                    args.id_tokens,
                ))),
                _ => None,
            };
            let allocations_before = allocations(&flows, &services).await;
            let round_trips_before = setup.round_trips.as_ref().map(|counter| counter.count());
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
                Scenario::ApiDirect | Scenario::Relay => {
                    let (flows, relay) = (flows.clone(), relay.clone());
                    let direct = *scenario == Scenario::ApiDirect;
                    drive(concurrency, args.relay_calls, deadline, move |_| {
                        let (flows, relay) = (flows.clone(), relay.clone());
                        async move {
                            match direct {
                                true => {
                                    flows
                                        .get_all(&relay.direct_url, &relay.provider_token)
                                        .await
                                }
                                false => flows.get_all(&relay.relay_url, &relay.bearer).await,
                            }
                        }
                    })
                    .await
                }
                Scenario::RelayStream => {
                    let (flows, relay) = (flows.clone(), relay.clone());
                    drive(concurrency, concurrency * 2, deadline, move |_| {
                        let (flows, relay) = (flows.clone(), relay.clone());
                        async move { flows.get_all(&relay.relay_stream_url, &relay.bearer).await }
                    })
                    .await
                }
                Scenario::EventsStream => {
                    let flows = flows.clone();
                    drive(concurrency, concurrency, deadline, move |index| {
                        let flows = flows.clone();
                        async move { flows.stream_events(index).await > 0 }
                    })
                    .await
                }
                Scenario::Refresh => {
                    let (flows, chains) = (flows.clone(), chains.clone().expect("prepared"));
                    drive(concurrency, args.refreshes, deadline, move |index| {
                        let (flows, chains) = (flows.clone(), chains.clone());
                        async move { chains.refresh(&flows, index).await }
                    })
                    .await
                }
                Scenario::IdToken => {
                    let (flows, tokens) = (flows.clone(), id_tokens.clone().expect("prepared"));
                    drive(concurrency, args.id_tokens, deadline, move |index| {
                        let (flows, tokens) = (flows.clone(), tokens.clone());
                        async move { tokens.sign_in(&flows, index, index).await }
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
            let counts = Counts {
                allocations: allocations(&flows, &services)
                    .await
                    .zip(allocations_before)
                    .map(|(after, before)| after.saturating_sub(before)),
                round_trips: setup
                    .round_trips
                    .as_ref()
                    .map(|counter| counter.count())
                    .zip(round_trips_before)
                    .map(|(after, before)| RoundTrips {
                        all: after.all - before.all,
                        pool_checks: after.pool_checks - before.pool_checks,
                    }),
            };
            report(*scenario, concurrency, &outcome, cpu, &counts, &services);
            if matches!(scenario, Scenario::RelayStream | Scenario::EventsStream) {
                streamed.push((*scenario, concurrency, peak_rss_mib(&services)));
            }
            failed += outcome.failed;
            if outcome.completed == 0 {
                return Err(format!(
                    "{scenario:?} at c = {concurrency}: nothing completed"
                ));
            }
        }
    }
    match storage::Storage::measure(&setup.database_url).await {
        Ok(storage) => println!("\ndatabase after the runs: {storage}"),
        Err(error) => println!("\ndatabase size not read: {error}"),
    }
    for (scenario, concurrency, peak) in streamed {
        let what = match scenario {
            Scenario::RelayStream => format!(
                "relay-stream: {concurrency} answers of {} MiB",
                args.stream_bytes / (1024 * 1024)
            ),
            _ => format!(
                "events-stream: {concurrency} streams of {} events",
                args.seed_events
            ),
        };
        println!("\n{what} at once; the service's peak RSS so far {peak:.1} MiB");
    }
    if failed > 0 {
        return Err(format!("{failed} operation(s) failed"));
    }
    Ok(())
}
