//! `RedisStateStore`: spent state ids and attempt counts as Redis keys with a TTL, shared by
//! every instance.

use async_trait::async_trait;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, RedisError};
use social_login_domain::{Spend, StateId};
use social_login_ports::{AttemptKey, Attempts, Clock, StateStore, StateStoreError, StoreResult};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// Counts one attempt: `INCR`, and the window's expiry set by the attempt that opened it
/// (a key without one, `PTTL` -1, gets it then), all in one script, so no crash between two
/// commands can leave a count that never expires (a lock-out for ever). Answers the count
/// and the milliseconds left.
const COUNT_ATTEMPT: &str = r"
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
";

/// Reads a count and the milliseconds its window has left, in one step; `{0, 0}` when no
/// window is open.
const PEEK_ATTEMPTS: &str = r"
local count = redis.call('GET', KEYS[1])
if not count then
  return {0, 0}
end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
";

/// What the Redis adapter needs from the configuration.
#[derive(derive_more::Debug, Clone)]
pub struct RedisStateStoreConfig {
    /// `redis://` or `rediss://` (TLS); may carry a password, so it is never printed.
    #[debug(skip)]
    pub url: String,
    /// Every key this adapter writes starts with it (docs/configuration.md `key_prefix`).
    pub key_prefix: String,
    /// Longest a request waits on Redis, reconnecting included, before it answers 503.
    pub timeout: Duration,
}

/// Spent state ids in Redis: `SET {prefix}state:spent:{id} 1 NX PX {ms}`, one atomic
/// command, so of concurrent spends of one id on any number of instances exactly one is
/// first, and Redis forgets the id by itself a minute after its value expires
/// ([`INSTANCE_CLOCK_SKEW`]). Attempts:
/// `{prefix}attempts:{key}`, counted by [`COUNT_ATTEMPT`].
#[derive(Clone)]
pub struct RedisStateStore {
    connection: ConnectionManager,
    key_prefix: String,
    timeout: Duration,
    clock: Arc<dyn Clock>,
}

impl RedisStateStore {
    /// Prepares the connection without making it: the service starts while Redis is down
    /// (its `/readyz` says 503) and connects on first use. Fails only for a malformed URL.
    pub fn new(config: RedisStateStoreConfig, clock: Arc<dyn Clock>) -> StoreResult<Self> {
        let client = Client::open(config.url.as_str())
            .map_err(|_| StateStoreError::unreachable("the Redis URL is not valid"))?;
        // Few, short reconnection attempts per failure: the request that noticed the loss
        // fails fast with 503, and the next request starts a new attempt, so the service
        // recovers by itself as soon as Redis is back.
        let manager_config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(config.timeout))
            .set_response_timeout(Some(config.timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(200));
        let connection = ConnectionManager::new_lazy_with_config(client, manager_config)
            .map_err(|error| StateStoreError::unreachable(describe(&error).0))?;
        Ok(Self {
            connection,
            key_prefix: config.key_prefix,
            timeout: config.timeout,
            clock,
        })
    }

    fn key(&self, id: &StateId) -> String {
        format!("{}state:spent:{}", self.key_prefix, id.to_hex())
    }

    fn attempts_key(&self, key: &AttemptKey) -> String {
        format!("{}attempts:{}", self.key_prefix, key.to_hex())
    }

    /// Runs one command with the overall time bound (a connection being re-established
    /// counts against it).
    async fn run<T: redis::FromRedisValue>(&self, command: redis::Cmd) -> StoreResult<T> {
        let mut connection = self.connection.clone();
        match tokio::time::timeout(self.timeout, command.query_async(&mut connection)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(store_error(&error)),
            Err(_) => Err(StateStoreError::unreachable("Redis did not answer in time")),
        }
    }
}

/// How far behind another instance's clock may run: a spent id outlives its value by this.
pub const INSTANCE_CLOCK_SKEW: time::Duration = time::Duration::minutes(1);

#[async_trait]
impl StateStore for RedisStateStore {
    async fn spend(&self, id: StateId, expires_at: OffsetDateTime) -> StoreResult<Spend> {
        // Relative expiry (PX), not absolute (PXAT): a Redis clock that runs ahead of ours
        // must not forget an id while its value can still be redeemed. Kept a margin past
        // the value's expiry: another instance whose clock runs behind ours still takes the
        // value that long.
        let remaining = (expires_at + INSTANCE_CLOCK_SKEW - self.clock.now()).whole_milliseconds();
        let millis = i64::try_from(remaining.max(1)).unwrap_or(i64::MAX);
        let mut command = redis::cmd("SET");
        command
            .arg(self.key(&id))
            .arg(1)
            .arg("NX")
            .arg("PX")
            .arg(millis);
        // `OK` when the key was set (first spend), nil when it existed.
        let reply: Option<String> = self.run(command).await?;
        Ok(match reply {
            Some(_) => Spend::First,
            None => Spend::Again,
        })
    }

    async fn count_attempt(
        &self,
        key: AttemptKey,
        window: time::Duration,
    ) -> StoreResult<Attempts> {
        let millis = i64::try_from(window.whole_milliseconds().max(1)).unwrap_or(i64::MAX);
        let mut command = redis::cmd("EVAL");
        command
            .arg(COUNT_ATTEMPT)
            .arg(1)
            .arg(self.attempts_key(&key))
            .arg(millis);
        let (count, left): (i64, i64) = self.run(command).await?;
        let count = u64::try_from(count)
            .map_err(|_| StateStoreError::refused("Redis answered a negative attempt count"))?;
        Ok(Attempts {
            count,
            window_left: time::Duration::milliseconds(left.max(0)),
        })
    }

    async fn peek_attempts(&self, key: AttemptKey) -> StoreResult<Attempts> {
        let mut command = redis::cmd("EVAL");
        command
            .arg(PEEK_ATTEMPTS)
            .arg(1)
            .arg(self.attempts_key(&key));
        let (count, left): (i64, i64) = self.run(command).await?;
        Ok(Attempts {
            count: u64::try_from(count).unwrap_or(0),
            window_left: time::Duration::milliseconds(left.max(0)),
        })
    }

    async fn clear_attempts(&self, key: AttemptKey) -> StoreResult<()> {
        let mut command = redis::cmd("DEL");
        command.arg(self.attempts_key(&key));
        let _: i64 = self.run(command).await?;
        Ok(())
    }

    async fn ping(&self) -> StoreResult<()> {
        let reply: String = self.run(redis::cmd("PING")).await?;
        if reply == "PONG" {
            Ok(())
        } else {
            Err(StateStoreError::refused(
                "Redis answered PING with something else",
            ))
        }
    }
}

/// `error` as the port says it: unreachable when no Redis answered (refused, dropped, timed
/// out, I/O), else a Redis that answered and refused (out of memory under `noeviction`).
fn store_error(error: &RedisError) -> StateStoreError {
    let (why, unreachable) = describe(error);
    match unreachable {
        true => StateStoreError::unreachable(why),
        false => StateStoreError::refused(why),
    }
}

/// A log-safe description (the kind of failure only: Redis error texts are not echoed, so
/// nothing of the URL, which may hold a password, can reach a log line), and whether no
/// Redis answered at all.
fn describe(error: &RedisError) -> (String, bool) {
    let (what, unreachable) = if error.is_timeout() {
        ("timed out", true)
    } else if error.is_connection_refusal() {
        ("connection refused", true)
    } else if error.is_connection_dropped() {
        ("connection dropped", true)
    } else if error.is_io_error() {
        ("I/O error", true)
    } else {
        ("command failed", false)
    };
    (format!("Redis {what} ({:?})", error.kind()), unreachable)
}
