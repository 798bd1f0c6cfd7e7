//! The password-login throttle (domain::throttle, docs/api.md#password-login-throttle):
//! each attempt for a well-formed email is counted for that account and client before any
//! look-up or hashing, in one atomic step of the state store, so concurrent guesses cannot
//! all slip in before the count rises, on any instance. Failures are also counted for the
//! account alone, which slows, never refuses. A hit is counted in `/metrics` and, once per
//! window, recorded as `user.login_throttled` when the account exists.

use crate::{AppError, AppResult, AuthService};
use sha2::{Digest, Sha256};
use social_login_domain::throttle::{
    ATTEMPT_WINDOW, AttemptVerdict, SLOWED_BY, client_network, judge_attempt, reaches_account_limit,
};
use social_login_domain::{AuditEventType, Email, Origin, UserId};
use social_login_ports::AttemptKey;
use std::net::IpAddr;
use time::Duration;
use tracing::warn;

/// The counts one attempt is judged by.
pub(crate) struct AdmittedAttempt {
    /// This account from this client: cleared by a success.
    client: AttemptKey,
    /// This account from anywhere, failures only.
    account: AttemptKey,
    /// How long the answer waits first: [`SLOWED_BY`] past the account's limit, else zero.
    pub(crate) delay: Duration,
}

impl AuthService {
    /// Counts an attempt for `email` from `origin`'s client and judges it: 429 past the
    /// client's failures, with the time left in its window.
    pub(crate) async fn admit_login_attempt(
        &self,
        email: &Email,
        origin: &Origin,
    ) -> AppResult<AdmittedAttempt> {
        let network = origin
            .ip
            .map(|ip| client_network(ip, self.policy.ipv6_prefix));
        let client = client_key(email, network);
        let account = account_key(email);
        let states = &self.ports.states;
        let attempts = states.count_attempt(client, ATTEMPT_WINDOW).await?;
        let failures = states.peek_attempts(account).await?.count;
        let limit = self.policy.password_attempts_per_account;
        match judge_attempt(attempts.count, attempts.window_left, failures, limit) {
            AttemptVerdict::Refused { retry_after, first } => {
                count_hit("client");
                if first {
                    self.record_throttled(email, None, origin).await;
                }
                Err(AppError::RateLimited {
                    retry_after_seconds: whole_seconds_up(retry_after),
                })
            }
            AttemptVerdict::Checked { slowed } => {
                if slowed {
                    count_hit("account");
                }
                Ok(AdmittedAttempt {
                    client,
                    account,
                    delay: if slowed { SLOWED_BY } else { Duration::ZERO },
                })
            }
        }
    }

    /// After a successful login: this client's count for the account starts again.
    pub(crate) async fn login_attempt_succeeded(&self, attempt: &AdmittedAttempt) -> AppResult<()> {
        Ok(self.ports.states.clear_attempts(attempt.client).await?)
    }

    /// After a failed one: the account's failures rise; the one that reaches the limit is
    /// recorded against `user` (the account, when it exists).
    pub(crate) async fn login_attempt_failed(
        &self,
        attempt: &AdmittedAttempt,
        email: &Email,
        user: Option<UserId>,
        origin: &Origin,
    ) -> AppResult<()> {
        let failures = self
            .ports
            .states
            .count_attempt(attempt.account, ATTEMPT_WINDOW)
            .await?;
        if reaches_account_limit(failures.count, self.policy.password_attempts_per_account) {
            self.record_throttled(email, user, origin).await;
        }
        Ok(())
    }

    /// Records `user.login_throttled` for the account of `email` (looked up unless
    /// `known`); best effort: the throttle holds whether or not the event is written.
    async fn record_throttled(&self, email: &Email, known: Option<UserId>, origin: &Origin) {
        let user = match known {
            Some(user) => Some(user),
            None => match self.ports.users.find_user_by_email(email).await {
                Ok(found) => found.map(|user| user.id),
                Err(error) => {
                    warn!(%error, "could not look up a throttled account");
                    None
                }
            },
        };
        let Some(user) = user else { return };
        let throttled = AuditEventType::UserLoginThrottled;
        if let Err(error) = self.record_lone_event(origin, throttled, user, None).await {
            warn!(%error, "could not record a login throttle");
        }
    }
}

/// Every throttle hit, by which limit: what an operator watches for a campaign.
fn count_hit(limit: &'static str) {
    metrics::counter!("social_login_password_throttled_total", "limit" => limit).increment(1);
}

/// The key of one account's attempts from one client network (`None`: the client is not
/// known, as for an embedder calling without an address). A labelled SHA-256, so the store
/// holds neither the email nor the address.
fn client_key(email: &Email, network: Option<IpAddr>) -> AttemptKey {
    let network = network.map(|ip| ip.to_string()).unwrap_or_default();
    digest(&[
        b"social-login password attempts per client\0",
        email.normalized().as_bytes(),
        b"\0",
        network.as_bytes(),
    ])
}

/// The key of one account's failures from anywhere.
fn account_key(email: &Email) -> AttemptKey {
    digest(&[
        b"social-login password failures per account\0",
        email.normalized().as_bytes(),
    ])
}

fn digest(parts: &[&[u8]]) -> AttemptKey {
    let digest = parts
        .iter()
        .fold(Sha256::new(), |hasher, part| hasher.chain_update(part))
        .finalize();
    AttemptKey::from_digest(digest.into())
}

/// `Retry-After` in whole seconds, rounded up, at least 1.
fn whole_seconds_up(left: Duration) -> u64 {
    let millis = u64::try_from(left.whole_milliseconds()).unwrap_or(0);
    millis.div_ceil(1000).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(raw: &str) -> Email {
        Email::parse(raw).unwrap()
    }

    #[test]
    fn the_keys_are_the_same_for_every_spelling_of_one_email() {
        let ip = Some("203.0.113.9".parse().unwrap());
        assert_eq!(
            client_key(&email("Ada@Example.com"), ip),
            client_key(&email(" ada@example.COM "), ip)
        );
        assert_eq!(
            account_key(&email("Ada@Example.com")),
            account_key(&email("ada@example.com"))
        );
    }

    #[test]
    fn accounts_clients_and_the_two_counts_are_kept_apart() {
        let ada = email("ada@example.com");
        let one = Some("203.0.113.9".parse().unwrap());
        let other = Some("203.0.113.10".parse().unwrap());
        assert_ne!(client_key(&ada, one), client_key(&ada, other));
        assert_ne!(
            client_key(&ada, one),
            client_key(&email("bob@example.com"), one)
        );
        assert_ne!(client_key(&ada, None), account_key(&ada));
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(whole_seconds_up(Duration::milliseconds(1)), 1);
        assert_eq!(whole_seconds_up(Duration::seconds(0)), 1);
        assert_eq!(whole_seconds_up(Duration::milliseconds(60_001)), 61);
        assert_eq!(whole_seconds_up(ATTEMPT_WINDOW), 900);
    }
}
