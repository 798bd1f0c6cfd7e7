//! Reading a user's audit events (`GET /users/me/events`, a JSON list) in the test binaries
//! that check a signal acted once.

use serde_json::Value;

/// How many of `events` have the type `kind`.
pub fn count_of_type(events: &Value, kind: &str) -> usize {
    let events = events.as_array().expect("the events are a list");
    events.iter().filter(|event| event["type"] == kind).count()
}
