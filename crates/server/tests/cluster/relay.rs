//! The relay's refresh across two instances: a dead provider token that many calls on both
//! processes meet at once is refreshed exactly once (the link's lease is in PostgreSQL), and
//! every call is answered with the one new token. The simulated provider rotates its refresh
//! tokens, so a second refresh with the old one would be refused and show as a 409.

use super::deployment::{
    CLIENT_ID, CLIENT_SECRET, Database, Deployment, REDIRECT_BASE, States, ada,
};
use super::flows::{Browser, access_token, all_within_a_minute};
use reqwest::StatusCode;
use social_login_simulator::Provider;
use std::time::Duration;

const CALLS: usize = 20;

/// Discord at the simulator, with its API as the relay's base, and the relay on.
fn discord_with_relay(deployment: &Deployment) -> String {
    let discord = deployment.sim.discord();
    let api = deployment.sim.api_base(Provider::Discord);
    format!(
        "\n[relay]\nenabled = true\n\n[oauth_providers.discord]\nclient_id = \"{CLIENT_ID}\"\n\
         client_secret = \"{CLIENT_SECRET}\"\nredirect_uri = \"{REDIRECT_BASE}discord\"\n\
         relay_base_urls = [\"{api}\"]\n\n[oauth_providers.discord.endpoints]\n\
         authorization = \"{}\"\ntoken = \"{}\"\nuserinfo = \"{}\"\nrevocation = \"{}\"\n",
        discord.authorization, discord.token, discord.user, discord.revocation
    )
}

#[tokio::test]
async fn a_dead_token_met_by_many_calls_on_two_instances_is_refreshed_once() {
    let Some(deployment) = Deployment::new(Database::Postgres, States::Redis, vec![ada()]).await
    else {
        return;
    };
    let extra = discord_with_relay(&deployment);
    let (a, b) = (
        deployment.spawn_instance_with(&extra),
        deployment.spawn_instance_with(&extra),
    );
    let browser = Browser::new();
    let login = browser
        .login_across(a.base(), b.base(), "discord", &ada().id)
        .await;
    assert_eq!(login.status(), StatusCode::OK);
    let bearer = access_token(&login.json().await.unwrap());

    deployment.sim.set_refresh_rotation(true);
    // Long enough that every call arrives while the one refresh is still in flight.
    deployment.sim.set_refresh_delay(Duration::from_millis(400));
    deployment.sim.expire_access_tokens();
    let calls: Vec<_> = (0..CALLS)
        .map(|i| {
            let base = if i % 2 == 0 { a.base() } else { b.base() };
            let (browser, bearer) = (browser.clone(), bearer.clone());
            let url = format!("{base}/relay/discord/me");
            tokio::spawn(async move { browser.get(url, Some(&bearer)).await.status() })
        })
        .collect();
    let statuses = all_within_a_minute(calls, "calls").await;

    assert!(
        statuses.iter().all(|status| *status == StatusCode::OK),
        "{statuses:?}\n{}",
        a.recent_logs()
    );
    assert_eq!(deployment.sim.refresh_grants(Provider::Discord), 1);
}
