//! How fast guesses may come: passwords (docs/api.md#password-login-throttle) and the
//! operator's keys (docs/api.md#operator-api).
//!
//! Password attempts have two counts, both over a window of [`ATTEMPT_WINDOW`] that opens at
//! the first one:
//! - per account *and* client (an IP, or its IPv6 network): past [`CLIENT_FAILURES`] the
//!   client gets 429 for that account until the window closes. Only that client: nobody can
//!   lock a stranger out by guessing wrong from elsewhere.
//! - per account alone, failures only: past the operator's limit every further attempt is
//!   slowed by [`SLOWED_BY`], never refused, so a campaign from many addresses costs the
//!   attacker time while the owner's right password still logs in.

use std::net::{IpAddr, Ipv6Addr};
use time::Duration;

/// The window both counts live in.
pub const ATTEMPT_WINDOW: Duration = Duration::minutes(15);
/// Failed attempts one client may make for one account in a window.
pub const CLIENT_FAILURES: u64 = 5;
/// Failed attempts for one account, from anywhere, before every attempt is slowed
/// (`[rate_limit] password_attempts_per_account`).
pub const DEFAULT_ACCOUNT_FAILURES: u64 = 100;
/// How long a slowed attempt waits before it is answered.
pub const SLOWED_BY: Duration = Duration::seconds(1);

/// What the counts say about one password attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptVerdict {
    /// This client failed too often for this account: 429 until the window closes.
    /// `first`: the first refusal of the window, the one to record.
    Refused { retry_after: Duration, first: bool },
    /// The password is checked; a slowed attempt is answered [`SLOWED_BY`] later.
    Checked { slowed: bool },
}

/// The verdict for an attempt that is the `client_attempts`-th of its client for the
/// account (counted before the password is checked; a success resets it), with
/// `client_window_left` of its window left, when the account has had `account_failures`
/// failures from anywhere in its window and the operator's limit is `account_limit`.
pub fn judge_attempt(
    client_attempts: u64,
    client_window_left: Duration,
    account_failures: u64,
    account_limit: u64,
) -> AttemptVerdict {
    if client_attempts > CLIENT_FAILURES {
        return AttemptVerdict::Refused {
            retry_after: client_window_left,
            first: client_attempts == CLIENT_FAILURES + 1,
        };
    }
    AttemptVerdict::Checked {
        slowed: account_failures >= account_limit,
    }
}

/// Whether the failure that brought the account's count to `failures` is the one that
/// reached the limit: recorded once per window, not once per attempt.
pub fn reaches_account_limit(failures: u64, account_limit: u64) -> bool {
    failures == account_limit
}

/// Wrong admin or service keys one client may present in a [`KEY_FAILURE_WINDOW`]; past
/// them its key-bearing requests answer 429 until the window closes.
pub const KEY_FAILURES: u64 = 10;
/// The window wrong keys are counted in.
pub const KEY_FAILURE_WINDOW: Duration = Duration::minutes(1);

/// Whether a client that presented `failures` wrong keys in its window is refused before
/// its key is even looked at.
pub fn keys_refused(failures: u64) -> bool {
    failures >= KEY_FAILURES
}

/// Whether the wrong key that brought the client's count to `counted` is refused too. Wrong
/// keys sent at once all pass [`keys_refused`] before any is counted; each then gets its own
/// count, so no more than [`KEY_FAILURES`] of them are answered as wrong keys.
pub fn wrong_key_refused(counted: u64) -> bool {
    counted > KEY_FAILURES
}

/// The network a client is counted by: an IPv4 address itself, an IPv6 address by its
/// first `ipv6_prefix` bits (one subscriber usually holds a whole /64).
pub fn client_network(ip: IpAddr, ipv6_prefix: u8) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let bits = u32::from(ipv6_prefix.min(128));
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEFT: Duration = Duration::minutes(7);

    #[test]
    fn a_client_is_refused_from_its_sixth_attempt_and_the_first_refusal_is_marked() {
        for attempt in 1..=CLIENT_FAILURES {
            assert_eq!(
                judge_attempt(attempt, LEFT, 0, DEFAULT_ACCOUNT_FAILURES),
                AttemptVerdict::Checked { slowed: false }
            );
        }
        assert_eq!(
            judge_attempt(6, LEFT, 0, DEFAULT_ACCOUNT_FAILURES),
            AttemptVerdict::Refused {
                retry_after: LEFT,
                first: true
            }
        );
        assert_eq!(
            judge_attempt(7, LEFT, 0, DEFAULT_ACCOUNT_FAILURES),
            AttemptVerdict::Refused {
                retry_after: LEFT,
                first: false
            }
        );
    }

    #[test]
    fn an_account_past_its_failures_slows_every_attempt_but_never_refuses_one() {
        let limit = DEFAULT_ACCOUNT_FAILURES;
        assert_eq!(
            judge_attempt(1, LEFT, limit - 1, limit),
            AttemptVerdict::Checked { slowed: false }
        );
        for failures in [limit, limit + 1, u64::MAX] {
            assert_eq!(
                judge_attempt(1, LEFT, failures, limit),
                AttemptVerdict::Checked { slowed: true }
            );
        }
    }

    #[test]
    fn the_client_limit_wins_over_the_slowdown() {
        assert!(matches!(
            judge_attempt(6, LEFT, 1_000, 100),
            AttemptVerdict::Refused { .. }
        ));
    }

    #[test]
    fn the_account_limit_is_reached_once() {
        assert!(!reaches_account_limit(99, 100));
        assert!(reaches_account_limit(100, 100));
        assert!(!reaches_account_limit(101, 100));
    }

    #[test]
    fn a_client_is_refused_keys_after_its_tenth_wrong_one() {
        assert!(!keys_refused(KEY_FAILURES - 1));
        assert!(keys_refused(KEY_FAILURES));
        assert!(keys_refused(KEY_FAILURES + 5));
        assert!(!wrong_key_refused(KEY_FAILURES));
        assert!(wrong_key_refused(KEY_FAILURES + 1));
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_network_and_ipv4_ones_by_address() {
        let v6 = |text: &str| text.parse::<IpAddr>().unwrap();
        assert_eq!(
            client_network(v6("2001:db8:1:2:aaaa::1"), 64),
            v6("2001:db8:1:2::")
        );
        assert_eq!(
            client_network(v6("2001:db8:1:2:aaaa::1"), 48),
            v6("2001:db8:1::")
        );
        assert_eq!(client_network(v6("203.0.113.9"), 64), v6("203.0.113.9"));
        assert_eq!(
            client_network(v6("::ffff:203.0.113.9"), 64),
            v6("203.0.113.9"),
            "a mapped IPv4 address is that address"
        );
        assert_eq!(client_network(v6("2001:db8::1"), 128), v6("2001:db8::1"));
    }
}
