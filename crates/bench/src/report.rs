//! One line of the results table per run.

use crate::Scenario;
use crate::load::Outcome;
use crate::round_trips::RoundTrips;
use crate::service::Service;
use std::time::Duration;

/// What the service did during a run, beyond CPU time.
pub struct Counts {
    pub allocations: Option<u64>,
    pub round_trips: Option<RoundTrips>,
}

pub fn report(
    scenario: Scenario,
    concurrency: usize,
    outcome: &Outcome,
    cpu: Duration,
    counts: &Counts,
    services: &[Service],
) {
    let name = match scenario {
        Scenario::Authorize => "authorize",
        Scenario::LoginNew => "login, new user",
        Scenario::LoginReturning => "login, returning user",
        Scenario::Refresh => "refresh (rotating chains)",
        Scenario::IdToken => "native sign-in (id_token)",
        Scenario::AdminLookup => "admin: by email, by account, read",
        Scenario::ApiDirect => "provider API, direct (baseline)",
        Scenario::Relay => "provider API through the relay",
        Scenario::RelayStream => "relay, large answers streamed",
        Scenario::EventsStream => "audit trail streamed as NDJSON",
    };
    let operations = outcome.completed.max(1) as f64;
    let per_op = cpu.as_secs_f64() * 1e6 / operations;
    let per_operation = |count: Option<u64>| {
        count.map_or("–".to_owned(), |count| {
            format!("{:.1}", count as f64 / operations)
        })
    };
    println!(
        "| {name} | {concurrency} | {} | {} | {:.0} | {:.3} | {:.3} | {per_op:.1} | {} | {} | {:.1} |",
        outcome.completed,
        outcome.failed,
        outcome.ops_per_second(),
        outcome.percentile(0.5).as_secs_f64() * 1e3,
        outcome.percentile(0.99).as_secs_f64() * 1e3,
        per_operation(counts.allocations),
        counts.round_trips.map_or("–".to_owned(), |trips| format!(
            "{} ({} pool checks)",
            per_operation(Some(trips.all)),
            per_operation(Some(trips.pool_checks))
        )),
        services.iter().map(Service::rss_mib).fold(0.0, f64::max),
    );
}
