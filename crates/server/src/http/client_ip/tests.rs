//! Client IP resolution: table tests of each rule, properties over arbitrary headers, and the
//! middleware with and without a TCP peer.

use super::*;
use axum::Extension;
use axum::Router;
use axum::body::Body;
use axum::http::HeaderValue;
use axum::routing::get;
use proptest::prelude::*;
use tower::ServiceExt;

mod bytes;

/// The proxies of every test: an IPv4 and an IPv6 private range.
fn trusted() -> TrustedProxies {
    TrustedProxies::new(["10.0.0.0/8".parse().unwrap(), "fd00::/8".parse().unwrap()])
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

fn headers(lines: &[&str]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        headers.append(X_FORWARDED_FOR, HeaderValue::from_str(line).unwrap());
    }
    headers
}

fn client(peer: &str, lines: &[&str]) -> String {
    resolve(ip(peer), &headers(lines), &trusted()).to_string()
}

#[test]
fn an_untrusted_peer_is_the_client_whatever_the_header_says() {
    assert_eq!(client("192.0.2.1", &["203.0.113.1"]), "192.0.2.1");
    assert_eq!(client("192.0.2.1", &[]), "192.0.2.1");
    let nobody = TrustedProxies::default();
    let spoofed = headers(&["203.0.113.1"]);
    assert_eq!(resolve(ip("10.0.0.1"), &spoofed, &nobody), ip("10.0.0.1"));
}

#[test]
fn a_trusted_peer_without_the_header_is_the_client() {
    assert_eq!(client("10.0.0.1", &[]), "10.0.0.1");
}

#[test]
fn the_right_most_untrusted_entry_is_the_client() {
    let cases: &[(&[&str], &str)] = &[
        (&["203.0.113.1"], "203.0.113.1"),
        // The left-most entry is whatever the client sent: never read.
        (&["198.51.100.7, 203.0.113.1"], "203.0.113.1"),
        (
            &["198.51.100.7, 203.0.113.1, 10.0.0.3, 10.0.0.2"],
            "203.0.113.1",
        ),
        (&["198.51.100.7,203.0.113.1,fd00::2"], "203.0.113.1"),
        // Whitespace (spaces and tabs) around entries is trimmed.
        (
            &["  198.51.100.7 ,\t203.0.113.1\t, 10.0.0.2 "],
            "203.0.113.1",
        ),
        // Several lines are one list, later lines further right.
        (&["198.51.100.7, 203.0.113.9", "203.0.113.1"], "203.0.113.1"),
        (
            &["198.51.100.7, 203.0.113.1", "10.0.0.3", "10.0.0.2"],
            "203.0.113.1",
        ),
        (&["2001:db8::7, 2001:db8::1"], "2001:db8::1"),
    ];
    for (lines, expected) in cases {
        assert_eq!(client("10.0.0.1", lines), *expected, "{lines:?}");
    }
}

#[test]
fn when_every_entry_is_trusted_the_left_most_is_the_client() {
    assert_eq!(client("10.0.0.1", &["10.0.0.5, 10.0.0.2"]), "10.0.0.5");
    assert_eq!(client("10.0.0.1", &["fd00::5", "10.0.0.2"]), "fd00::5");
}

#[test]
fn an_entry_that_is_no_address_ends_the_walk_at_the_proxy_that_wrote_it() {
    let cases: &[(&[&str], &str)] = &[
        (&["203.0.113.1, unknown, 10.0.0.2"], "10.0.0.2"),
        (&["unknown"], "10.0.0.1"),
        (&["203.0.113.1, _hidden"], "10.0.0.1"),
        (&["203.0.113.1,,10.0.0.2"], "10.0.0.2"),
        (&["203.0.113.1, "], "10.0.0.1"),
        (&[""], "10.0.0.1"),
        (&["203.0.113.1, not an address"], "10.0.0.1"),
        (&["203.0.113.1, 010.0.0.2"], "10.0.0.1"),
        (&["203.0.113.1, 1.2.3.4:99999"], "10.0.0.1"),
        (&["203.0.113.1, fe80::1%eth0"], "10.0.0.1"),
        (&["203.0.113.1", "garbage", "10.0.0.2"], "10.0.0.2"),
    ];
    for (lines, expected) in cases {
        assert_eq!(client("10.0.0.1", lines), *expected, "{lines:?}");
    }
}

#[test]
fn entries_with_a_port_are_read_as_their_address() {
    let cases: &[(&str, &str)] = &[
        ("203.0.113.1:5678", "203.0.113.1"),
        ("[2001:db8::1]:80", "2001:db8::1"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        // Trusted hops with ports are skipped like any other.
        ("203.0.113.1, 10.0.0.2:4433", "203.0.113.1"),
        ("203.0.113.1, [fd00::2]:4433", "203.0.113.1"),
    ];
    for (line, expected) in cases {
        assert_eq!(client("10.0.0.1", &[line]), *expected, "{line}");
    }
}

#[test]
fn ipv4_mapped_ipv6_addresses_match_ipv4_networks_and_come_out_as_ipv4() {
    // A dual-stack listener reports an IPv4 proxy this way.
    assert_eq!(client("::ffff:10.0.0.1", &["203.0.113.1"]), "203.0.113.1");
    assert_eq!(
        client("10.0.0.1", &["203.0.113.1, ::ffff:10.0.0.2"]),
        "203.0.113.1"
    );
    assert_eq!(client("10.0.0.1", &["::ffff:203.0.113.1"]), "203.0.113.1");
    assert_eq!(client("::ffff:192.0.2.1", &["203.0.113.1"]), "192.0.2.1");
}

#[test]
fn ipv6_proxies_are_trusted_by_their_network() {
    assert_eq!(client("fd00::1", &["2001:db8::1, fd00::2"]), "2001:db8::1");
    assert_eq!(client("fe80::1", &["2001:db8::1"]), "fe80::1");
}

#[test]
fn the_walk_examines_at_most_the_bounded_number_of_entries() {
    let chain = |hops: usize| {
        let mut line = String::from("203.0.113.1");
        for _ in 0..hops {
            line.push_str(", 10.0.0.2");
        }
        line
    };
    let within = chain(MAX_FORWARDED_ENTRIES - 1);
    assert_eq!(client("10.0.0.1", &[&within]), "203.0.113.1");
    let beyond = chain(MAX_FORWARDED_ENTRIES);
    assert_eq!(client("10.0.0.1", &[&beyond]), "10.0.0.2");
}

#[test]
fn an_overlong_entry_is_not_an_address() {
    let padded = format!("203.0.113.1, {}1.2.3.4", "0".repeat(MAX_ENTRY_LEN));
    assert_eq!(client("10.0.0.1", &[&padded]), "10.0.0.1");
}

// --- properties ---

/// Addresses inside and outside the trusted networks, IPv4-mapped ones included.
fn address() -> impl Strategy<Value = IpAddr> {
    prop_oneof![
        any::<u8>().prop_map(|last| IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))),
        any::<u16>().prop_map(|last| IpAddr::V6(Ipv6Addr::new(0xfd00, 0, 0, 0, 0, 0, 0, last))),
        any::<u8>().prop_map(|last| IpAddr::V6(Ipv4Addr::new(10, 0, 0, last).to_ipv6_mapped())),
        any::<u32>().prop_map(|bits| IpAddr::V4(Ipv4Addr::from(bits))),
        any::<u128>().prop_map(|bits| IpAddr::V6(Ipv6Addr::from(bits))),
    ]
}

/// One entry as proxies (and attackers) write them.
fn entry() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => address().prop_map(|address| address.to_string()),
        1 => (address(), any::<u16>())
            .prop_map(|(address, port)| SocketAddr::new(address, port).to_string()),
        1 => Just("unknown".to_owned()),
        1 => "[ -~]{0,16}",
    ]
}

/// One header line: entries joined by commas with optional whitespace.
fn line() -> impl Strategy<Value = String> {
    prop::collection::vec((entry(), "[ \t]{0,2}"), 0..6).prop_map(|entries| {
        let parts: Vec<String> = entries
            .into_iter()
            .map(|(entry, pad)| format!("{pad}{entry}{pad}"))
            .collect();
        parts.join(",")
    })
}

fn header_lines() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(line(), 0..4)
}

fn header_map(lines: &[String]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        headers.append(X_FORWARDED_FOR, HeaderValue::from_str(line).unwrap());
    }
    headers
}

/// Every address the header's lines hold, whatever the walk would have reached.
fn addresses_in(lines: &[impl AsRef<[u8]>]) -> Vec<IpAddr> {
    lines
        .iter()
        .flat_map(|line| line.as_ref().split(|&byte| byte == b','))
        .filter_map(parse_entry)
        .collect()
}

/// The property the header holds as text and as bytes alike: the client resolved from
/// `lines` (sent as `headers`) is the peer or an address the lines hold.
fn client_is_the_peer_or_listed(
    peer: IpAddr,
    headers: &HeaderMap,
    lines: &[impl AsRef<[u8]> + std::fmt::Debug],
) -> Result<(), TestCaseError> {
    let client = resolve(peer, headers, &trusted());
    prop_assert!(
        client == peer.to_canonical() || addresses_in(lines).contains(&client),
        "{client} from peer {peer} and {lines:?}"
    );
    Ok(())
}

proptest! {
    #[test]
    fn the_client_is_the_peer_or_an_address_from_the_header(
        peer in address(),
        lines in header_lines(),
    ) {
        client_is_the_peer_or_listed(peer, &header_map(&lines), &lines)?;
    }

    #[test]
    fn an_untrusted_peer_is_always_the_client(
        peer in address().prop_filter("untrusted", |peer| !trusted().contains(*peer)),
        lines in header_lines(),
    ) {
        prop_assert_eq!(resolve(peer, &header_map(&lines), &trusted()), peer.to_canonical());
    }

    /// What the client prepends cannot move the result once our proxies named an untrusted
    /// address: a spoofed left part of the header selects nothing.
    #[test]
    fn entries_left_of_the_client_never_matter(
        peer in address(),
        spoofed in line(),
        lines in header_lines(),
    ) {
        let honest = resolve(peer, &header_map(&lines), &trusted());
        prop_assume!(!trusted().contains(honest));
        let mut with_prefix = vec![spoofed];
        with_prefix.extend(lines);
        prop_assert_eq!(resolve(peer, &header_map(&with_prefix), &trusted()), honest);
    }
}

// --- middleware ---

fn echo_client_ip() -> Router {
    Router::new()
        .route(
            "/",
            get(|Extension(client): Extension<ClientIp>| async move { client.to_string() }),
        )
        .layer(layer(trusted()))
}

async fn seen_client(request: axum::http::Request<Body>) -> String {
    let response = echo_client_ip().oneshot(request).await.unwrap();
    let body = axum::body::to_bytes(response.into_body(), 1024)
        .await
        .unwrap();
    String::from_utf8(body.to_vec()).unwrap()
}

fn request_from(peer: Option<&str>, forwarded_for: &str) -> axum::http::Request<Body> {
    let mut request = axum::http::Request::get("/")
        .header(X_FORWARDED_FOR, forwarded_for)
        .body(Body::empty())
        .unwrap();
    if let Some(peer) = peer {
        let socket = SocketAddr::new(ip(peer), 40_000);
        request.extensions_mut().insert(ConnectInfo(socket));
    }
    request
}

#[tokio::test]
async fn the_middleware_stores_the_resolved_client_ip() {
    let request = request_from(Some("10.0.0.1"), "198.51.100.7, 203.0.113.1");
    assert_eq!(seen_client(request).await, "203.0.113.1");
    let request = request_from(Some("192.0.2.1"), "203.0.113.1");
    assert_eq!(seen_client(request).await, "192.0.2.1");
}

#[tokio::test]
async fn without_a_tcp_peer_the_client_is_unknown_and_the_header_is_ignored() {
    let request = request_from(None, "203.0.113.1");
    assert_eq!(seen_client(request).await, "0.0.0.0");
}
