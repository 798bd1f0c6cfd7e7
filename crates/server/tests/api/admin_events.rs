//! The audit trail as a query (docs/api.md#audit-trail): pages by event id that never skip
//! or repeat, filters, the whole selection as NDJSON, and support's reads recorded for
//! operators only.

use crate::admin::{ADMIN_KEY, admin_json, with_admin};
use crate::helpers::{TestApp, assert_problem_in, spawn_app_with, user_id};
use serde_json::Value;
use std::collections::BTreeSet;

async fn as_admin(app: &TestApp, path: &str, accept: Option<&str>) -> reqwest::Response {
    let mut request = app.http.get(app.url(path)).bearer_auth(ADMIN_KEY);
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    request.send().await.unwrap()
}

fn ids(events: &Value) -> Vec<String> {
    let events = events.as_array().unwrap().iter();
    events
        .map(|event| event["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Every event `filter` selects, page by page of `limit`.
async fn paged(app: &TestApp, filter: &str, limit: u64) -> Vec<String> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1000 {
        let after = cursor.map(|c| format!("&cursor={c}")).unwrap_or_default();
        let page = admin_json(app, &format!("/admin/events?limit={limit}{filter}{after}")).await;
        all.extend(ids(&page["events"]));
        cursor = page["next_cursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            return all;
        }
    }
    panic!("the pages never ended");
}

#[tokio::test]
async fn pages_filters_and_the_stream_select_each_event_once() {
    let app = spawn_app_with(with_admin()).await;
    let (registered, _) = app.pat_linked("github").await;
    let pat = user_id(&registered);
    for _ in 0..3 {
        app.login("1000001").await;
    }
    let everything = paged(&app, "", 1000).await;
    assert!(everything.len() >= 6, "{everything:?}");
    let unique: BTreeSet<_> = everything.iter().collect();
    assert_eq!(unique.len(), everything.len(), "no event twice");
    let mut newest_first = everything.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(everything, newest_first, "newest first");
    assert_eq!(
        paged(&app, "", 2).await,
        everything,
        "small pages, the same events"
    );

    let logins = admin_json(&app, "/admin/events?type=user.login&limit=1000").await;
    let logins = logins["events"].as_array().unwrap().clone();
    assert!(logins.len() >= 3);
    assert!(logins.iter().all(|event| event["type"] == "user.login"));
    let future = "/admin/events?since=2999-01-01T00:00:00Z";
    assert!(
        admin_json(&app, future).await["events"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // The whole selection as NDJSON, one event per line.
    let streamed = as_admin(&app, "/admin/events", Some("application/x-ndjson")).await;
    assert_eq!(streamed.headers()["content-type"], "application/x-ndjson");
    let text = streamed.text().await.unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(lines, everything);

    // A query about Pat is a read of Pat's data: recorded with the key's id, for
    // operators only.
    let pats = paged(&app, &format!("&user_id={pat}"), 1000).await;
    assert!(!pats.is_empty());
    let reads = admin_json(&app, "/admin/events?type=admin.read").await;
    let read = &reads["events"][0];
    assert_eq!(read["user_id"], pat.as_str());
    assert!(read["key_id"].is_string());
    // So is a look at Pat's account.
    let before = reads["events"].as_array().unwrap().len();
    admin_json(&app, &format!("/admin/users/{pat}")).await;
    let reads = admin_json(&app, "/admin/events?type=admin.read").await;
    assert_eq!(reads["events"].as_array().unwrap().len(), before + 1);
    assert_eq!(reads["events"][0]["user_id"], pat.as_str());
    app.stop().await;
}

#[tokio::test]
async fn what_does_not_parse_is_refused() {
    let app = spawn_app_with(with_admin()).await;
    for bad in [
        "limit=0",
        "limit=1001",
        "type=no.such",
        "cursor=nope",
        "since=yesterday",
        "user_id=42",
    ] {
        let refused = as_admin(&app, &format!("/admin/events?{bad}"), None).await;
        assert_problem_in(bad, refused, 422, "ValidationError").await;
    }
    let anonymous = app.get("/admin/events", None).await;
    assert_problem_in("no key", anonymous, 401, "Unauthorized").await;
    app.stop().await;
}
