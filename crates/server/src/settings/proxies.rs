//! Entries of `server.trusted_proxies` and `telemetry.traceparent_from`: a bare IP address
//! (one host) or a CIDR, IPv4 or IPv6.
//!
//! One parser for validation and start-up, so a configuration that validates always starts.
//! Its errors say what is wrong without quoting the entry (docs/api.md#command-line: problems name the
//! field, never the value).

use super::ConfigErrors;
use ipnet::IpNet;
use std::net::IpAddr;

/// Why an entry is not a network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BadProxyEntry {
    #[error("not an IP address or CIDR (expected e.g. 10.0.0.0/8, 192.0.2.10 or fd00::/8)")]
    NotAnAddress,
    #[error("not an IP address or CIDR: the prefix length after `/` must be a number")]
    PrefixNotANumber,
    #[error("not an IP address or CIDR: the prefix length is over {max} for {family}")]
    PrefixTooLong { max: u8, family: &'static str },
}

/// `10.0.0.0/8`, `fd00::/8`, or a bare `192.0.2.10` / `2001:db8::1` (a /32 or /128).
///
/// Host bits in a CIDR are dropped (`10.1.2.3/8` is `10.0.0.0/8`), as nginx's
/// `set_real_ip_from` reads them. Surrounding whitespace is ignored.
pub fn parse_proxy_network(entry: &str) -> Result<IpNet, BadProxyEntry> {
    let entry = entry.trim();
    let Some((address, prefix)) = entry.split_once('/') else {
        let address: IpAddr = entry.parse().map_err(|_| BadProxyEntry::NotAnAddress)?;
        return Ok(IpNet::from(address));
    };
    let address: IpAddr = address.parse().map_err(|_| BadProxyEntry::NotAnAddress)?;
    // Digits only: `u8::from_str` would also take `+8`.
    if prefix.is_empty() || !prefix.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(BadProxyEntry::PrefixNotANumber);
    }
    let (max, family) = match address {
        IpAddr::V4(_) => (32, "IPv4"),
        IpAddr::V6(_) => (128, "IPv6"),
    };
    let too_long = BadProxyEntry::PrefixTooLong { max, family };
    let prefix: u8 = prefix.parse().map_err(|_| too_long)?;
    IpNet::new(address, prefix)
        .map(|network| network.trunc())
        .map_err(|_| too_long)
}

/// A list of entries (`server.trusted_proxies`, `telemetry.traceparent_from`) parsed, in
/// order.
fn parse_proxy_networks(
    entries: &[String],
) -> impl Iterator<Item = Result<IpNet, BadProxyEntry>> + '_ {
    entries.iter().map(|entry| parse_proxy_network(entry))
}

/// The networks of a list that validation checked ([`check_proxy_networks`] refuses a bad
/// entry before anything starts, so none is left out here).
pub(super) fn checked_proxy_networks(entries: &[String]) -> impl Iterator<Item = IpNet> + '_ {
    parse_proxy_networks(entries).filter_map(Result::ok)
}

/// Names each entry of the list at `field` that is not a network (`field[index]`).
pub(super) fn check_proxy_networks(errors: &mut ConfigErrors, field: &str, entries: &[String]) {
    for (index, network) in parse_proxy_networks(entries).enumerate() {
        if let Err(reason) = network {
            errors.push(format!("{field}[{index}]"), reason.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network(entry: &str) -> String {
        parse_proxy_network(entry).unwrap().to_string()
    }

    #[test]
    fn cidrs_and_bare_addresses_of_both_families_are_networks() {
        assert_eq!(network("10.0.0.0/8"), "10.0.0.0/8");
        assert_eq!(network("192.0.2.10"), "192.0.2.10/32");
        assert_eq!(network("fd00::/8"), "fd00::/8");
        assert_eq!(network("2001:db8::1"), "2001:db8::1/128");
        assert_eq!(network("0.0.0.0/0"), "0.0.0.0/0");
        assert_eq!(network(" 172.16.0.0/12 "), "172.16.0.0/12");
    }

    #[test]
    fn host_bits_of_a_cidr_are_dropped() {
        assert_eq!(network("10.1.2.3/8"), "10.0.0.0/8");
        assert_eq!(network("2001:db8::1/32"), "2001:db8::/32");
    }

    #[test]
    fn a_prefix_longer_than_the_family_allows_is_named() {
        assert_eq!(
            parse_proxy_network("10.0.0.0/33"),
            Err(BadProxyEntry::PrefixTooLong {
                max: 32,
                family: "IPv4"
            })
        );
        assert!(matches!(
            parse_proxy_network("fd00::/129"),
            Err(BadProxyEntry::PrefixTooLong { max: 128, .. })
        ));
        assert!(matches!(
            parse_proxy_network("10.0.0.0/999"),
            Err(BadProxyEntry::PrefixTooLong { .. })
        ));
    }

    #[test]
    fn anything_else_is_refused() {
        for entry in ["", "localhost", "10.0.0", "010.0.0.1", "1.2.3.4:80", "x/8"] {
            assert_eq!(
                parse_proxy_network(entry),
                Err(BadProxyEntry::NotAnAddress),
                "{entry:?}"
            );
        }
        for entry in [
            "10.0.0.0/",
            "10.0.0.0/+8",
            "10.0.0.0/8/8",
            "10.0.0.0/x",
            "10.0.0.0/ 8",
        ] {
            assert_eq!(
                parse_proxy_network(entry),
                Err(BadProxyEntry::PrefixNotANumber),
                "{entry:?}"
            );
        }
    }
}
