//! The relay (docs/api.md#relay): a call to the provider's API made for a user, with the
//! link's provider token attached by the service, over real HTTP to the simulated
//! provider's API. The token never reaches the caller, the caller's credentials never reach
//! the provider, and a dead token is refreshed once, server-side.

use crate::helpers::{
    Options, TestApp, assert_problem_in, spawn_app_tuned, spawn_app_with, strings, user_id,
    with_presets,
};
use crate::raw_http::{Outcome, RawConnection, address_of};
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login::settings::Settings;
use social_login_security::AdminKeyHash;
use social_login_simulator::{Endpoint, Fault, Provider, TokenKind};
use std::time::Duration;

/// A backend's service key (its hash is configured).
const SERVICE_KEY: &str = "sla_relay-test-service-key-0123456789abcdef";

fn relay_on(settings: &mut Settings) {
    settings.relay.enabled = true;
    settings.relay.service_keys = vec![AdminKeyHash::of(SERVICE_KEY).to_string()];
}

async fn relay_app() -> TestApp {
    spawn_app_tuned(relay_on).await
}

/// [`relay_app`] and the bearer of a user linked to `provider`.
async fn linked_relay_app(provider: &str) -> (TestApp, String) {
    let app = relay_app().await;
    let (_, bearer) = app.pat_linked(provider).await;
    (app, bearer)
}

/// [`linked_relay_app`] for a preset.
async fn linked_preset_relay_app(preset: &str) -> (TestApp, String) {
    let app = spawn_app_with(Options {
        with_simulator: with_presets,
        tune: relay_on,
        ..Options::default()
    })
    .await;
    let (_, bearer) = app.pat_linked(preset).await;
    (app, bearer)
}

impl TestApp {
    /// A relayed call of `method` to `path` (after `/relay/`), as the holder of `bearer`.
    async fn relay(&self, method: reqwest::Method, path: &str, bearer: &str) -> reqwest::Response {
        self.http
            .request(method, self.url(&format!("/relay/{path}")))
            .bearer_auth(bearer)
            .send()
            .await
            .unwrap()
    }

    async fn relay_get(&self, path: &str, bearer: &str) -> reqwest::Response {
        self.relay(reqwest::Method::GET, path, bearer).await
    }

    /// A backend's GET of GitHub's `/me` with `key`, on behalf of the user `user` names.
    async fn relay_as_backend(&self, key: &str, user: &str) -> reqwest::Response {
        self.http
            .get(self.url("/relay/github/me"))
            .bearer_auth(key)
            .header("social-login-user", user)
            .send()
            .await
            .unwrap()
    }

    /// How many `provider.reauthorization_required` events the holder of `bearer` sees.
    async fn refusals_recorded(&self, bearer: &str) -> usize {
        let events = self.events(bearer).await;
        (events.as_array().unwrap().iter())
            .filter(|event| event["type"] == "provider.reauthorization_required")
            .count()
    }

    /// Calls the simulated provider's API answered.
    fn api_calls(&self) -> usize {
        let requests = self.sim.requests().into_iter();
        requests
            .filter(|request| request.endpoint == Some(Endpoint::Api))
            .count()
    }
}

#[tokio::test]
async fn a_user_calls_their_providers_api_and_the_service_attaches_the_token() {
    let (app, bearer) = linked_relay_app("github").await;

    let me = app.relay_get("github/me", &bearer).await;
    assert_eq!(me.status(), StatusCode::OK);
    assert_eq!(me.headers()["content-type"], "application/json");
    let me: Value = me.json().await.unwrap();
    assert_eq!(me["provider"], "github");
    assert_eq!(me["id"], "583231");
    assert_eq!(app.api_calls(), 1);
    app.stop().await;
}

#[tokio::test]
async fn the_callers_credentials_and_the_providers_cookies_never_cross() {
    let (app, bearer) = linked_relay_app("github").await;

    let echoed = app
        .http
        .post(app.url("/relay/github/echo/a%20b?page=2&q=x%2By"))
        .bearer_auth(&bearer)
        .header("cookie", "session=caller-secret")
        .header("x-api-key", "caller-secret")
        .header("content-type", "text/plain")
        .header("accept", "application/json")
        .body("hello provider")
        .send()
        .await
        .unwrap();
    assert_eq!(echoed.status(), StatusCode::OK);
    let headers = echoed.headers().clone();
    assert!(headers.get("set-cookie").is_none(), "{headers:?}");
    assert!(headers.get("x-provider-secret").is_none(), "{headers:?}");
    assert_eq!(headers["x-ratelimit-remaining"], "4999");
    assert_eq!(headers["retry-after"], "1");
    let echo: Value = echoed.json().await.unwrap();
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["path"], "echo/a%20b");
    assert_eq!(echo["query"], "page=2&q=x%2By");
    assert_eq!(echo["body"], "hello provider");
    assert_eq!(echo["content_type"], "text/plain");
    assert_eq!(echo["token_seen"], true);
    let names: Vec<&str> = echo["header_names"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        names.contains(&"authorization"),
        "the provider's token: {names:?}"
    );
    for withheld in ["cookie", "x-api-key", "social-login-user"] {
        assert!(
            !names.contains(&withheld),
            "{withheld} reached the provider"
        );
    }
    let issued = app.sim.issued_access_tokens();
    let body = serde_json::to_string(&echo).unwrap();
    assert!(issued.iter().all(|token| !body.contains(token.as_str())));
    // Neither body, nor the path past the provider, reaches the log.
    let logs = crate::helpers::logs();
    for private in ["hello provider", "a%20b", "caller-secret"] {
        assert!(!logs.contains(private), "{private} was logged");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_path_or_query_that_could_leave_the_base_is_400_before_any_call() {
    let (app, bearer) = linked_relay_app("github").await;
    // Sent as written, byte for byte: an HTTP client library would resolve some of these
    // (`%2e%2e`) before they left it.
    for path in [
        "github/..%2Fgoogle/api/me",
        "github/a/%2e%2e/me",
        "github/a/%2E/me",
        "github/a/../../google/api/me",
        "github/a%2Fb",
        "github/a%5Cb",
        "github/a%252Fb",
        "github/a//b",
        "github/@evil.example/me",
        "github/https:%2F%2Fevil.example",
        "github/me?x=%0d%0aHost:evil",
        "github/me?x=%zz",
    ] {
        let mut connection = RawConnection::open(address_of(&app.base)).await;
        let head = format!(
            "GET /relay/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Authorization: Bearer {bearer}\r\n\r\n"
        );
        connection.send(head.as_bytes()).await.unwrap();
        let Outcome::Response(refused) = connection.read_response(Duration::from_secs(10)).await
        else {
            panic!("{path}: no response");
        };
        assert_eq!(refused.status, 400, "{path}");
        let problem: Value = serde_json::from_slice(&refused.body).unwrap();
        assert_eq!(problem["code"], "ValidationError", "{path}");
    }
    assert_eq!(app.api_calls(), 0, "nothing was sent");
    app.stop().await;
}

#[tokio::test]
async fn no_link_no_relay_and_no_caller_are_refused() {
    let (app, bearer) = linked_relay_app("github").await;
    let unlinked = app.relay_get("google/me", &bearer).await;
    assert_problem_in("not linked", unlinked, 404, "OAuthAccountNotFound").await;
    let apple = app.relay_get("apple/me", &bearer).await;
    assert_problem_in("no API base", apple, 404, "NotFound").await;
    let unknown = app.relay_get("nosuch/me", &bearer).await;
    assert_problem_in("unknown", unknown, 404, "OAuthProviderNotConfigured").await;
    let anonymous = app
        .http
        .get(app.url("/relay/github/me"))
        .send()
        .await
        .unwrap();
    assert_problem_in("no bearer", anonymous, 401, "Unauthorized").await;
    let options = app
        .relay(reqwest::Method::OPTIONS, "github/me", &bearer)
        .await;
    assert_problem_in("OPTIONS", options, 405, "MethodNotAllowed").await;
    app.stop().await;

    let off = spawn_app_tuned(|_| {}).await;
    let (_, bearer) = off.pat_linked("github").await;
    let refused = off.relay_get("github/me", &bearer).await;
    assert_problem_in("relay off", refused, 404, "NotFound").await;
    let anonymous = off
        .http
        .get(off.url("/relay/github/me"))
        .send()
        .await
        .unwrap();
    assert_problem_in("relay off, no bearer", anonymous, 404, "NotFound").await;
    // Nor does a relay path take a larger body than any other path while the relay is off.
    let large = off
        .http
        .post(off.url("/relay/github/echo"))
        .body(vec![b'a'; 200_000]);
    let large = large.send().await.unwrap();
    assert_problem_in("relay off, 200 kB", large, 413, "PayloadTooLarge").await;
    off.stop().await;
}

#[tokio::test]
async fn a_token_its_userinfo_takes_in_the_path_goes_in_a_header_never_in_the_callers_url() {
    let (app, bearer) = linked_preset_relay_app("hubspot").await;
    let me = app.relay_get("hubspot/me", &bearer).await;
    assert_eq!(
        me.status(),
        StatusCode::OK,
        "HubSpot's API takes a Bearer header"
    );

    // The placeholder the userinfo URL is filled at, asked for by the caller.
    let placeholder = "%7Baccess_token%7D";
    let asked = format!("hubspot/echo/{placeholder}?t={placeholder}");
    let echoed = app.relay_get(&asked, &bearer).await;
    assert_eq!(echoed.status(), StatusCode::OK);
    let text = echoed.text().await.unwrap();
    let issued = app.sim.issued_access_tokens();
    assert!(!issued.is_empty());
    for token in &issued {
        assert!(
            !text.contains(token.as_str()),
            "the token came back: {text}"
        );
    }
    let echo: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(echo["path"], format!("echo/{placeholder}"));
    assert_eq!(echo["query"], format!("t={placeholder}"));
    app.stop().await;
}

#[tokio::test]
async fn a_redirect_is_answered_not_followed() {
    let (app, bearer) = linked_relay_app("github").await;
    let redirect = app.relay_get("github/redirect", &bearer).await;
    assert_eq!(redirect.status(), StatusCode::FOUND);
    assert!(
        redirect.headers()["location"]
            .to_str()
            .unwrap()
            .ends_with("/api/me")
    );
    assert_eq!(app.api_calls(), 1, "the redirect was not followed");
    app.stop().await;
}

#[tokio::test]
async fn the_providers_own_error_passes_back_as_it_is() {
    let (app, bearer) = linked_relay_app("github").await;
    let gone = app.relay_get("github/status/404", &bearer).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    assert_eq!(gone.headers()["content-type"], "application/json");
    let body: Value = gone.json().await.unwrap();
    assert_eq!(body["status"], 404);
    app.stop().await;
}

#[tokio::test]
async fn an_expired_token_is_refreshed_once_and_the_call_retried() {
    let (app, bearer) = linked_relay_app("discord").await;
    app.sim.expire_access_tokens();

    let me = app.relay_get("discord/me", &bearer).await;
    assert_eq!(me.status(), StatusCode::OK);
    assert_eq!(app.sim.refresh_grants(Provider::Discord), 1);
    assert_eq!(app.api_calls(), 2, "the 401, then the retry");
    let again = app.relay_get("discord/me", &bearer).await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(
        app.sim.refresh_grants(Provider::Discord),
        1,
        "the new token is kept"
    );
    let events = app.events(&bearer).await;
    assert_eq!(events[0]["type"], "provider.token_refreshed");
    assert_eq!(events[0]["provider"], "discord");
    app.stop().await;
}

#[tokio::test]
async fn a_refresh_the_request_deadline_cuts_off_is_still_stored() {
    let app = spawn_app_tuned(|settings| {
        relay_on(settings);
        settings.http.request_timeout_seconds = 1;
    })
    .await;
    let (_, bearer) = app.pat_linked("discord").await;
    app.sim.set_refresh_rotation(true);
    app.sim.expire_access_tokens();
    // The provider answers the refresh after the request's deadline has passed.
    app.sim.set_fault(
        Fault::new(Provider::Discord, Endpoint::Token).delay(Duration::from_millis(1_500)),
    );
    let cut = app.relay_get("discord/me", &bearer).await;
    assert_ne!(cut.status(), StatusCode::OK);
    app.sim.clear_faults();
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(app.sim.refresh_grants(Provider::Discord), 1);

    // The rotated tokens were stored: the next call uses them, with no refresh.
    let me = app.relay_get("discord/me", &bearer).await;
    assert_eq!(me.status(), StatusCode::OK);
    assert_eq!(app.sim.refresh_grants(Provider::Discord), 1);
    app.stop().await;
}

const HUBSPOT: Provider = Provider::simulated("hubspot");

#[tokio::test]
async fn tokens_a_refresh_brings_after_the_link_was_disconnected_are_revoked() {
    // HubSpot revokes a token alone, so the disconnect's revocation leaves the new ones live.
    let (app, bearer) = linked_preset_relay_app("hubspot").await;
    app.sim.set_refresh_rotation(true);
    app.sim.expire_access_tokens();
    // The provider issues the new tokens; they reach the service after the disconnect.
    app.sim.set_refresh_late_answer(Duration::from_millis(800));
    let disconnect_meanwhile = async {
        for _ in 0..200 {
            if app.sim.refresh_grants(HUBSPOT) > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        app.disconnect("hubspot", &bearer).await
    };
    let (relayed, disconnected) =
        tokio::join!(app.relay_get("hubspot/me", &bearer), disconnect_meanwhile);
    assert_eq!(disconnected.status(), StatusCode::NO_CONTENT);
    assert_problem_in("the link went", relayed, 404, "OAuthAccountNotFound").await;

    let revocations = app.revocations_at(HUBSPOT);
    let live: Vec<_> = revocations.iter().filter(|r| r.kind.is_some()).collect();
    assert_eq!(live.len(), 1, "the new tokens, revoked: {revocations:?}");
    assert_eq!(live[0].kind, Some(TokenKind::Refresh));
    app.stop().await;
}

#[tokio::test]
async fn a_rotated_refresh_token_is_stored_and_used_next_time() {
    let (app, bearer) = linked_relay_app("discord").await;
    app.sim.set_refresh_rotation(true);
    for round in 1..=3 {
        app.sim.expire_access_tokens();
        let me = app.relay_get("discord/me", &bearer).await;
        assert_eq!(me.status(), StatusCode::OK, "round {round}");
        assert_eq!(app.sim.refresh_grants(Provider::Discord), round);
    }
    app.stop().await;
}

#[tokio::test]
async fn an_answer_that_repeats_the_token_of_a_query_token_provider_is_refused() {
    // Yandex takes the token in the query; the simulated API's echo repeats the query.
    let (app, bearer) = linked_preset_relay_app("yandex").await;
    let me = app.relay_get("yandex/me", &bearer).await;
    let me: Value = me
        .json()
        .await
        .expect("an answer without the token passes whole");
    assert_eq!(me["provider"], "yandex");

    let echoed = app.relay_get("yandex/echo", &bearer).await;
    let problem = assert_problem_in("echo", echoed, 502, "ProviderUnavailable").await;
    let issued = app.sim.issued_access_tokens();
    assert!(!issued.is_empty());
    for token in issued {
        assert!(
            !problem.to_string().contains(&token),
            "the token reached the caller"
        );
    }
    app.stop().await;
}

/// Asserts that a relayed call through `preset` reaches its API with the header `name`.
async fn relayed_calls_carry(preset: &str, name: &str) {
    let (app, bearer) = linked_preset_relay_app(preset).await;
    let echo = app.relay_get(&format!("{preset}/echo"), &bearer).await;
    assert_eq!(echo.status(), StatusCode::OK);
    let echo: Value = echo.json().await.unwrap();
    let names = echo["header_names"].as_array().unwrap();
    assert!(names.contains(&json!(name)), "{preset}: {echo}");
    app.stop().await;
}

#[tokio::test]
async fn notion_calls_carry_the_version_header_notion_requires() {
    relayed_calls_carry("notion", "notion-version").await;
}

#[tokio::test]
async fn twitch_calls_carry_the_client_id_helix_requires() {
    relayed_calls_carry("twitch", "client-id").await;
}

#[tokio::test]
async fn reddit_calls_carry_reddits_own_user_agent() {
    // Reddit limits generic agents: the preset's own goes with relayed calls too.
    let (app, bearer) = linked_preset_relay_app("reddit").await;
    let echo: Value = app
        .relay_get("reddit/echo", &bearer)
        .await
        .json()
        .await
        .unwrap();
    let agent = echo["user_agent"].as_str().unwrap_or_default();
    assert!(
        agent.starts_with("server:social-login-reddit-preset"),
        "{echo}"
    );
    app.stop().await;
}

/// Asserts that a relayed call through `preset` past its access token's life is refreshed
/// once and answered.
async fn refreshed_once_through(preset: &'static str) {
    let (app, bearer) = linked_preset_relay_app(preset).await;
    app.sim.expire_access_tokens();
    let me = app.relay_get(&format!("{preset}/me"), &bearer).await;
    assert_eq!(me.status(), StatusCode::OK, "{preset}");
    assert_eq!(app.sim.refresh_grants(Provider::simulated(preset)), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_wechat_link_is_refreshed_at_wechats_refresh_endpoint() {
    refreshed_once_through("wechat").await;
}

#[tokio::test]
async fn a_vk_link_is_refreshed_with_the_device_its_grant_was_approved_on() {
    // VK refuses a refresh without the callback's `device_id`, which the link keeps.
    refreshed_once_through("vk").await;
}

#[tokio::test]
async fn an_atlassian_link_outlives_its_first_access_token() {
    // Atlassian issues a refresh token only to a grant with `offline_access`.
    refreshed_once_through("atlassian").await;
}

#[tokio::test]
async fn a_refused_refresh_is_409_with_a_connect_url_and_the_link_stays() {
    let (app, bearer) = linked_relay_app("discord").await;
    app.sim.revoke_grants();

    let refused = app.relay_get("discord/me", &bearer).await;
    let problem =
        assert_problem_in("revoked", refused, 409, "ProviderReauthorizationRequired").await;
    assert_eq!(
        problem["connect_url"],
        "/auth/oauth/discord/authorize?purpose=connect"
    );
    let accounts = app.accounts(&bearer).await;
    let providers = strings(&accounts, "provider");
    assert!(providers.contains(&"discord"), "the link stays: {accounts}");
    let events = app.events(&bearer).await;
    assert_eq!(events[0]["type"], "provider.reauthorization_required");

    // The grant's tokens went with the refusal: the next calls ask the provider nothing and
    // record nothing more.
    let (calls, requests) = (app.api_calls(), app.sim.requests().len());
    for _ in 0..3 {
        let again = app.relay_get("discord/me", &bearer).await;
        assert_problem_in("again", again, 409, "ProviderReauthorizationRequired").await;
    }
    assert_eq!(
        (app.api_calls(), app.sim.requests().len()),
        (calls, requests)
    );
    assert_eq!(app.refusals_recorded(&bearer).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn a_refresh_the_provider_could_not_serve_keeps_the_grant() {
    let (app, bearer) = linked_relay_app("discord").await;
    app.sim.expire_access_tokens();
    // A busy provider, and one that does not take the client's credentials (a secret being
    // rotated): neither says the grant is gone.
    let faults = [
        Fault::new(Provider::Discord, Endpoint::Token).error_in_200("temporarily_unavailable"),
        Fault::new(Provider::Discord, Endpoint::Token).status(401),
    ];
    for fault in faults {
        app.sim.set_fault(fault.clone());
        let failed = app.relay_get("discord/me", &bearer).await;
        assert_problem_in(&format!("{fault:?}"), failed, 502, "ProviderUnavailable").await;
    }
    app.sim.clear_faults();
    let me = app.relay_get("discord/me", &bearer).await;
    assert_eq!(
        me.status(),
        StatusCode::OK,
        "the stored refresh token still works"
    );
    assert_eq!(app.sim.refresh_grants(Provider::Discord), 1);
    assert_eq!(app.refusals_recorded(&bearer).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn one_endpoints_401_keeps_a_grant_the_provider_still_honours() {
    // GitHub's tokens have no refresh token: its userinfo endpoint says whether one lives.
    let (app, bearer) = linked_relay_app("github").await;
    let refused = app.relay_get("github/status/401", &bearer).await;
    assert_eq!(
        refused.status(),
        StatusCode::UNAUTHORIZED,
        "the provider's own 401"
    );
    let me = app.relay_get("github/me", &bearer).await;
    assert_eq!(me.status(), StatusCode::OK, "the grant stays");
    assert_eq!(app.refusals_recorded(&bearer).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn a_dead_token_without_a_refresh_token_goes_straight_to_409() {
    let (app, bearer) = linked_relay_app("github").await;
    app.sim.expire_access_tokens();
    let refused = app.relay_get("github/me", &bearer).await;
    assert_problem_in(
        "no refresh token",
        refused,
        409,
        "ProviderReauthorizationRequired",
    )
    .await;
    assert_eq!(app.sim.refresh_grants(Provider::Github), 0);
    app.stop().await;
}

#[tokio::test]
async fn a_backend_relays_for_a_user_with_a_service_key_and_only_with_one() {
    let app = relay_app().await;
    let (registered, bearer) = app.pat_linked("github").await;
    let user = user_id(&registered);
    let me = app.relay_as_backend(SERVICE_KEY, &user).await;
    assert_eq!(me.status(), StatusCode::OK);
    let wrong = app.relay_as_backend("sla_not-the-key", &user).await;
    assert_problem_in("wrong key", wrong, 401, "Unauthorized").await;
    let users_bearer = app.relay_as_backend(&bearer, &user).await;
    assert_problem_in(
        "a user's token is no key",
        users_bearer,
        401,
        "Unauthorized",
    )
    .await;
    let bad_user = app.relay_as_backend(SERVICE_KEY, "not-a-uuid").await;
    assert_problem_in("bad user id", bad_user, 400, "ValidationError").await;
    let key_alone = app.relay_get("github/me", SERVICE_KEY).await;
    assert_problem_in("a key names no user", key_alone, 401, "Unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn ten_wrong_service_keys_make_that_clients_next_backend_call_429_whatever_its_key() {
    let app = relay_app().await;
    let (registered, _) = app.pat_linked("github").await;
    let user = user_id(&registered);
    for _ in 0..10 {
        let wrong = app.relay_as_backend("sla_not-the-key", &user).await;
        assert_problem_in("wrong key", wrong, 401, "Unauthorized").await;
    }
    let refused = app.relay_as_backend(SERVICE_KEY, &user).await;
    assert!(refused.headers().contains_key("retry-after"));
    assert_problem_in("the right key, too late", refused, 429, "RateLimited").await;
    assert_eq!(app.api_calls(), 0, "no call reached the provider");
    app.stop().await;
}

#[tokio::test]
async fn a_deleted_users_bearer_is_unauthorized_and_a_backend_finds_no_link() {
    let app = relay_app().await;
    let (registered, bearer) = app.pat_linked("github").await;
    let user = user_id(&registered);
    app.delete_account(&bearer).await;
    // The access token still verifies until it expires; its user is gone.
    let own = app.relay_get("github/me", &bearer).await;
    assert_problem_in("the deleted user's bearer", own, 401, "Unauthorized").await;
    let for_them = app.relay_as_backend(SERVICE_KEY, &user).await;
    assert_problem_in(
        "a backend naming them",
        for_them,
        404,
        "OAuthAccountNotFound",
    )
    .await;
    assert_eq!(app.api_calls(), 0, "nothing reached GitHub");
    app.stop().await;
}

#[tokio::test]
async fn bodies_up_to_1_mib_go_on_and_answers_past_the_bound_are_refused() {
    let app = spawn_app_tuned(|settings| {
        relay_on(settings);
        settings.relay.max_response_bytes = 500_000;
    })
    .await;
    let (_, bearer) = app.pat_linked("github").await;
    let post = |size: usize| {
        app.http
            .post(app.url("/relay/github/echo"))
            .bearer_auth(&bearer)
            .header("content-type", "application/octet-stream")
            .body(vec![b'a'; size])
            .send()
    };
    // Larger than the other endpoints' 64 KiB, within the relay's 1 MiB.
    assert_eq!(
        post(200_000).await.unwrap().status(),
        StatusCode::OK.as_u16()
    );
    let too_large = post((1 << 20) + 1).await.unwrap();
    assert_problem_in("over 1 MiB", too_large, 413, "PayloadTooLarge").await;

    let small = app.relay_get("github/bytes?n=1000", &bearer).await;
    assert_eq!(small.bytes().await.unwrap().len(), 1000);
    let large = app.relay_get("github/bytes?n=600000", &bearer).await;
    assert_problem_in("over the bound", large, 502, "ProviderUnavailable").await;
    app.stop().await;
}

#[tokio::test]
async fn relayed_calls_and_refreshes_are_counted_by_provider_and_class() {
    let (app, bearer) = linked_relay_app("discord").await;
    app.relay_get("discord/me", &bearer).await;
    app.relay_get("discord/status/404", &bearer).await;
    app.sim.expire_access_tokens();
    app.relay_get("discord/me", &bearer).await;
    let metrics = app.get("/metrics", None).await.text().await.unwrap();
    let line = |needle: &str| {
        metrics
            .lines()
            .find(|line| line.starts_with(needle))
            .unwrap_or_else(|| panic!("{needle} in {metrics}"))
            .to_owned()
    };
    line("social_login_relay_calls_total{provider=\"discord\",status_class=\"2xx\"}");
    line("social_login_relay_calls_total{provider=\"discord\",status_class=\"4xx\"}");
    line("social_login_relay_refreshes_total{provider=\"discord\",outcome=\"refreshed\"}");
    app.stop().await;
}

fn github_connect_scopes(settings: &mut Settings) {
    relay_on(settings);
    let github = settings
        .oauth_providers
        .get_mut(social_login_domain::ProviderKey::GITHUB)
        .expect("github is enabled");
    github.connect_scopes = vec!["repo".into(), "read:org".into()];
}

#[tokio::test]
async fn a_connect_asks_for_the_extra_scopes_it_may_and_the_link_shows_them() {
    let app = spawn_app_tuned(github_connect_scopes).await;
    let (_, bearer) = app.signed_up("pat@example.com").await;
    let asked = app
        .get(
            "/auth/oauth/github/authorize?purpose=connect&scopes=repo,read:org",
            Some(&bearer),
        )
        .await;
    assert_eq!(asked.status(), StatusCode::OK);
    let asked: Value = asked.json().await.unwrap();
    let url = asked["authorization_url"].as_str().unwrap();
    let scope = url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(name, _)| name == "scope")
        .map(|(_, value)| value.into_owned())
        .unwrap();
    assert!(scope.ends_with(" repo read:org"), "{scope}");

    let approval = app.approve_at_provider(url, "583231").await;
    let linked = app.connect("github", &approval, &bearer).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let accounts = app.accounts(&bearer).await;
    let scopes = &accounts[0]["scopes"];
    for wanted in ["repo", "read:org"] {
        let granted = scopes
            .as_array()
            .unwrap()
            .iter()
            .any(|scope| scope == wanted);
        assert!(granted, "{scopes}");
    }
    app.stop().await;
}

#[tokio::test]
async fn only_a_connect_asks_for_more_and_only_for_what_the_provider_allows() {
    let app = spawn_app_tuned(github_connect_scopes).await;
    let (_, bearer) = app.signed_up("pat@example.com").await;
    let path = "/auth/oauth/github/authorize";
    let not_allowed = app
        .get(
            &format!("{path}?purpose=connect&scopes=repo,admin:org"),
            Some(&bearer),
        )
        .await;
    let problem = assert_problem_in("not allowed", not_allowed, 422, "ValidationError").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("scopes:") && !detail.contains("admin:org"),
        "{detail}"
    );
    let long = format!("{path}?purpose=connect&scopes={}", "repo,".repeat(300));
    let listed = app.get(&long, Some(&bearer)).await;
    assert_problem_in("a long list", listed, 422, "ValidationError").await;
    let on_a_login = app.get(&format!("{path}?scopes=repo"), None).await;
    assert_problem_in("on a login", on_a_login, 422, "ValidationError").await;
    let anonymous_connect = app.get(&format!("{path}?purpose=connect"), None).await;
    assert_problem_in(
        "connect without a bearer",
        anonymous_connect,
        401,
        "Unauthorized",
    )
    .await;
    let other_purpose = app.get(&format!("{path}?purpose=steal"), None).await;
    assert_problem_in("unknown purpose", other_purpose, 422, "ValidationError").await;
    let google = app
        .get(
            "/auth/oauth/google/authorize?purpose=connect&scopes=repo",
            Some(&bearer),
        )
        .await;
    assert_problem_in("another provider's", google, 422, "ValidationError").await;
    app.stop().await;
}
