//! One provider signal reaching two instances at once, many times over: it acts once. The
//! instances share only PostgreSQL, whose unique receipt settles it.

#[path = "../common/event_counts.rs"]
mod event_counts;

use super::deployment::{ada, or_skip, two_instances};
use super::flows::{access_token, all_within_a_minute};
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login_simulator::SignalDelivery;

const DELIVERIES: usize = 12;

#[tokio::test]
async fn the_same_security_event_delivered_to_two_instances_at_once_acts_once() {
    let (deployment, a, b, browser) = or_skip!(two_instances(vec![ada()], "").await);
    let approval = browser.approval(a.base(), "google", None, "583231").await;
    let login: Value = browser
        .callback(a.base(), "google", &approval)
        .await
        .json()
        .await
        .unwrap();

    let build = format!("{}/_control/signals/build", deployment.sim.base_url());
    let request = json!({"kind": "revoke_google_sessions", "user": "583231"});
    let set: SignalDelivery = browser
        .post(build, &request, None)
        .await
        .json()
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(DELIVERIES));
    let deliveries: Vec<_> = (0..DELIVERIES)
        .map(|i| {
            let base = if i % 2 == 0 { a.base() } else { b.base() };
            let (http, set, barrier) = (http.clone(), set.clone(), barrier.clone());
            let url = format!("{base}{}", set.path);
            tokio::spawn(async move {
                barrier.wait().await;
                let sent = http
                    .post(url)
                    .header("content-type", set.content_type)
                    .body(set.body);
                sent.send().await.unwrap().status()
            })
        })
        .collect();
    let statuses = all_within_a_minute(deliveries, "deliveries").await;
    assert!(
        statuses
            .iter()
            .all(|status| *status == StatusCode::ACCEPTED),
        "{statuses:?}\n{}",
        a.recent_logs()
    );

    let events_url = format!("{}/users/me/events", b.base());
    let events: Value = browser
        .get_json(events_url, Some(&access_token(&login)))
        .await;
    let acted = event_counts::count_of_type(&events, "provider.security_event");
    assert_eq!(acted, 1, "{events}");
    let refresh = json!({"refresh_token": login["refresh_token"]});
    let refreshed = browser
        .post(format!("{}/auth/refresh", b.base()), &refresh, None)
        .await;
    assert_eq!(
        refreshed.status(),
        StatusCode::UNAUTHORIZED,
        "the Google session ended"
    );
}
