//! The header as bytes: what the client writes left of the entries the walk examines (text
//! that is not even ASCII included) never matters, and an examined entry that is not ASCII
//! ends the walk like any other non-address. Tables, then properties over arbitrary bytes.

use super::*;

fn with_bytes(lines: &[&[u8]]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        headers.append(X_FORWARDED_FOR, HeaderValue::from_bytes(line).unwrap());
    }
    headers
}

#[test]
fn bytes_that_are_not_ascii_left_of_the_client_are_never_read() {
    let trusted = trusted();
    let cases: &[&[&[u8]]] = &[
        // The client's own part of a joined line.
        &[b"\xff\xfe, 203.0.113.1, 10.0.0.2"],
        &[b"caf\xc3\xa9 198.51.100.7,203.0.113.1"],
        // The client's own line, before the lines our proxies wrote.
        &[b"\xff", b"203.0.113.1"],
        &[b"\x80\x80\x80", b"203.0.113.1, 10.0.0.2"],
    ];
    for lines in cases {
        let client = resolve(ip("10.0.0.1"), &with_bytes(lines), &trusted);
        assert_eq!(client, ip("203.0.113.1"), "{lines:?}");
    }
}

#[test]
fn an_examined_entry_that_is_not_ascii_ends_the_walk_like_any_other_non_address() {
    let trusted = trusted();
    let cases: &[(&[&[u8]], &str)] = &[
        (&[b"203.0.113.1, 10.0.0.2, \xff"], "10.0.0.1"),
        (&[b"203.0.113.1, \xff, 10.0.0.2"], "10.0.0.2"),
        (&[b"203.0.113.1", b"10.0.0.2, 1\xc3\xa9.0.0.3"], "10.0.0.1"),
        // A digit lookalike (U+0661 ARABIC-INDIC DIGIT ONE) is not a digit.
        (&[b"\xd9\xa1.2.3.4"], "10.0.0.1"),
    ];
    for (lines, expected) in cases {
        let client = resolve(ip("10.0.0.1"), &with_bytes(lines), &trusted);
        assert_eq!(client, ip(expected), "{lines:?}");
    }
}

// --- properties ---

/// Any byte a header value may hold (hyper refuses control characters but the tab), with
/// commas and spaces often enough to cut it into entries.
fn header_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => 0x20u8..=0x7e,
        2 => 0x80u8..=0xff,
        1 => Just(b','),
        1 => Just(b' '),
        1 => Just(b'\t'),
    ]
}

/// A header line of arbitrary bytes, sometimes with real entries in it.
fn byte_line() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        prop::collection::vec(header_byte(), 0..24),
        entry().prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|pieces| pieces.join(&b","[..]))
}

fn byte_map(lines: &[Vec<u8>]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for line in lines {
        headers.append(X_FORWARDED_FOR, HeaderValue::from_bytes(line).unwrap());
    }
    headers
}

proptest! {
    #[test]
    fn any_bytes_resolve_to_the_peer_or_an_address_they_hold(
        peer in address(),
        lines in prop::collection::vec(byte_line(), 0..4),
    ) {
        client_is_the_peer_or_listed(peer, &byte_map(&lines), &lines)?;
    }

    /// Whatever bytes the client puts in front, in its own line or joined into the first
    /// line our proxies append to, they select nothing once an untrusted address was found.
    #[test]
    fn bytes_left_of_the_client_never_matter(
        peer in address(),
        spoofed in byte_line(),
        lines in header_lines().prop_filter("some line", |lines| !lines.is_empty()),
    ) {
        let honest = resolve(peer, &header_map(&lines), &trusted());
        prop_assume!(!trusted().contains(honest));
        let as_bytes: Vec<Vec<u8>> = lines.iter().map(|line| line.clone().into_bytes()).collect();
        let mut own_line = vec![spoofed.clone()];
        own_line.extend(as_bytes.iter().cloned());
        prop_assert_eq!(resolve(peer, &byte_map(&own_line), &trusted()), honest);
        let mut joined = as_bytes;
        joined[0] = [spoofed, joined[0].clone()].join(&b","[..]);
        prop_assert_eq!(resolve(peer, &byte_map(&joined), &trusted()), honest);
    }

    #[test]
    fn an_entry_parses_to_its_address_whatever_the_padding(
        address in address(),
        port in any::<u16>(),
        with_port in any::<bool>(),
        left in "[ \t]{0,3}",
        right in "[ \t]{0,3}",
    ) {
        let text = if with_port {
            SocketAddr::new(address, port).to_string()
        } else {
            address.to_string()
        };
        let entry = format!("{left}{text}{right}");
        prop_assert_eq!(parse_entry(entry.as_bytes()), Some(address.to_canonical()));
    }

    #[test]
    fn an_entry_with_a_byte_that_is_not_ascii_is_no_address(
        entry in prop::collection::vec(header_byte(), 0..60),
    ) {
        prop_assume!(!entry.is_ascii());
        prop_assert_eq!(parse_entry(&entry), None);
    }
}
