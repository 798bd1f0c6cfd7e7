//! Real `social-login serve` processes: two instances sharing PostgreSQL and Redis, races
//! across them, single use and the password throttle across them, `kill -9` in the middle
//! of a burst, a restart, an authorize flood, Redis going away.
//! Tests that need PostgreSQL or Redis read `TEST_POSTGRES_URL` / `TEST_REDIS_URL` (skipped
//! loudly without them; failing under `CI`).

mod admin;
#[path = "../common/approval.rs"]
mod approval;
mod crash;
mod deployment;
mod flood;
mod flows;
mod login_throttle;
mod races;
mod redis_faults;
mod relay;
mod signals;
mod single_use;
mod telemetry;
mod two_instances;
mod webhooks;
