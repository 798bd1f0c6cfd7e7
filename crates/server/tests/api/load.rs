//! Load shedding: past `http.max_in_flight` requests (counted once their body is read) are
//! refused at once with 503 and `Retry-After` (liveness still answers), and a burst of
//! password logins is answered 200/401/503 by a server whose memory stays bounded by the
//! hashing slots.

use crate::helpers::*;
use crate::process::ServerProcess;
use crate::raw_http::{Outcome, RawConnection, address_of, request_head};
use serde_json::{Value, json};
use social_login_simulator::{Endpoint, Fault, Provider};
use std::time::Duration;

const MAX_IN_FLIGHT: usize = 2;

/// One GET on a connection of its own; its status and headers.
async fn get(address: std::net::SocketAddr, path: &str) -> crate::raw_http::RawResponse {
    let mut connection = RawConnection::open(address).await;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    connection.send(request.as_bytes()).await.unwrap();
    match connection.read_response(Duration::from_secs(10)).await {
        Outcome::Response(response) => response,
        other => panic!("GET {path}: {other}"),
    }
}

/// Polls `path` until its status is (or is not) 503, for at most five seconds.
async fn until_shed(
    address: std::net::SocketAddr,
    path: &str,
    shed: bool,
) -> crate::raw_http::RawResponse {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let response = get(address, path).await;
        if (response.status == 503) == shed {
            return response;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} still {} after 5 s",
            response.status
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Callbacks whose code exchange GitHub answers slowly, holding every in-flight slot of the
/// public listener meanwhile (a body that never comes holds none: `slow_clients`).
async fn hold_every_slot(app: &TestApp) -> Vec<RawConnection> {
    let mut approvals = Vec::new();
    for _ in 0..MAX_IN_FLIGHT {
        let url = app.authorize("github", None).await;
        approvals.push(app.approve_at_provider(&url, "583231").await);
    }
    app.sim.set_fault(
        Fault::new(Provider::Github, Endpoint::Token).delay(Duration::from_millis(3000)),
    );
    let mut holders = Vec::new();
    for approval in approvals {
        let body = approval.body().to_string();
        let head = request_head("POST", "/auth/oauth/github/callback", body.len());
        let mut holder = RawConnection::open(address_of(&app.base)).await;
        holder
            .send(format!("{head}{body}").as_bytes())
            .await
            .unwrap();
        holders.push(holder);
    }
    holders
}

#[tokio::test]
async fn past_max_in_flight_requests_are_shed_with_503_and_healthz_still_answers() {
    let app = spawn_app_tuned(|settings| settings.http.max_in_flight = MAX_IN_FLIGHT).await;
    let address = address_of(&app.base);
    let holders = hold_every_slot(&app).await;

    let shed = until_shed(address, "/openapi.json", true).await;
    assert_eq!(shed.header("retry-after"), Some("1"));
    assert_eq!(
        shed.header("content-type"),
        Some("application/problem+json")
    );
    // Its request was read whole: the connection stays usable for the retry.
    assert!(!shed.closes_connection());
    let problem: Value = serde_json::from_slice(&shed.body).unwrap();
    assert_eq!(problem["code"], "ServiceUnavailable");
    assert_eq!(get(address, "/healthz").await.status, 200);

    // Requests that finish, or whose clients go away, give their slots back.
    drop(holders);
    let served = until_shed(address, "/openapi.json", false).await;
    assert_eq!(served.status, 200);
    app.stop().await;
}

#[tokio::test]
async fn a_flood_of_the_public_listener_leaves_the_operators_listener_its_own_slots() {
    let app = spawn_app_tuned(|settings| {
        crate::admin::admin_keys(settings);
        settings.admin.bind = Some("127.0.0.1:0".into());
        settings.http.max_in_flight = MAX_IN_FLIGHT;
    })
    .await;
    let holders = hold_every_slot(&app).await;
    until_shed(address_of(&app.base), "/openapi.json", true).await;
    let users = app.admin_url("/admin/users").unwrap();
    let support = app.http.get(&users).bearer_auth(crate::admin::ADMIN_KEY);
    assert_eq!(support.send().await.unwrap().status(), 200);
    drop(holders);
    app.stop().await;
}

const LOGINS: usize = 200;
const HASH_SLOTS: u64 = 2;
/// argon2id with the OWASP costs holds 19 MiB per hash.
const HASH_KIB: u64 = 19 * 1024;
/// Everything else a burst of 200 connections costs the server: buffers, tasks, responses.
/// Measured: about 8 MiB.
const BURST_OVERHEAD_KIB: u64 = 32 * 1024;

#[tokio::test]
async fn a_burst_of_password_logins_is_answered_200_401_429_or_503_within_bounded_memory() {
    let server = ServerProcess::start(&format!(
        // One client sends the whole burst: let it hold a connection per login.
        "[rate_limit]\nenabled = false\n[http]\nmax_concurrent_password_hashes = {HASH_SLOTS}\n\
         max_connections_per_ip = {LOGINS}\n"
    ));
    let baseline = server.rss_kib();
    let http = reqwest::Client::new();
    let credentials = json!({"email": "pat@example.com", "password": PASSWORD});
    let registered = http
        .post(server.url("/auth/register"))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(registered.status(), 201);

    let mut logins = tokio::task::JoinSet::new();
    for index in 0..LOGINS {
        let http = http.clone();
        let url = server.url("/auth/login");
        // Wrong passwords for emails of their own: each is hashed (one email would be
        // throttled after five, without hashing). Pat's own logins may be throttled too
        // when more than five are counted before the first success clears the count.
        let body = if index % 2 == 0 {
            json!({"email": "pat@example.com", "password": PASSWORD})
        } else {
            json!({"email": format!("nobody{index}@example.com"), "password": "a wrong password"})
        };
        logins.spawn(async move {
            let response = http.post(url).json(&body).send().await.expect("an answer");
            let retry_after = response.headers().get("retry-after").is_some();
            (response.status().as_u16(), retry_after)
        });
    }
    let mut statuses = Vec::new();
    while let Some(login) = logins.join_next().await {
        let (status, retry_after) = login.unwrap();
        assert!([200, 401, 429, 503].contains(&status), "status {status}");
        if status == 503 || status == 429 {
            assert!(retry_after, "{status} without Retry-After");
        }
        statuses.push(status);
    }
    let peak = server.peak_rss_kib();
    let answered = statuses
        .iter()
        .filter(|status| ![429, 503].contains(*status))
        .count();
    assert!(answered > 0, "the burst starved every login: {statuses:?}");
    let bound = baseline + HASH_SLOTS * HASH_KIB + BURST_OVERHEAD_KIB;
    assert!(
        peak <= bound,
        "peak RSS {peak} KiB over the bound {bound} KiB (at start {baseline} KiB; \
         {answered} of {LOGINS} logins hashed)"
    );
}
