//! Every knob (docs/configuration.md#the-knobs) on providers from configuration, each table
//! written as an operator writes it and pointed at a simulated provider that needs that knob:
//! each signs Ada in through the whole service, and what the simulator received shows the
//! knob at work.

use crate::helpers::*;
use social_login::settings::Settings;
use social_login_simulator::{Endpoint, Provider, SimUser, SimulatorHandle};

/// The table of a provider from configuration named `key` at the simulated `dialect`:
/// the registered client, its endpoints, then `rest` (TOML lines).
fn table(sim: &SimulatorHandle, key: &str, dialect: &'static str, rest: &str) -> String {
    let e = sim.endpoints(Provider::simulated(dialect));
    let optional = |name: &str, url: Option<String>| {
        url.map(|url| format!(", {name} = \"{url}\""))
            .unwrap_or_default()
    };
    // An [emails] table names where its list is (`url`), as an operator may write it.
    let rest = match e.emails {
        Some(url) => rest.replacen("emails = { ", &format!("emails = {{ url = \"{url}\", "), 1),
        None => rest.to_owned(),
    };
    format!(
        "[oauth_providers.{key}]\n\
         client_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\n\
         redirect_uri = \"{redirect}\"\n\
         endpoints = {{ authorization = \"{authorization}\", token = \"{token}\"{userinfo} }}\n\
         {rest}\n",
        redirect = redirect_uri(dialect),
        authorization = e.authorization,
        token = e.token,
        userinfo = optional("userinfo", e.userinfo),
    )
}

/// The providers of this file, all of `kind = "oauth2"`: (key, the simulated provider it is
/// pointed at, the rest of its table).
const TABLES: [(&str, &str, &str); 11] = [
    // WeChat's names for the client's id and secret, scopes joined by commas, no
    // token_type, the user's id in the token answer, the token in the query.
    (
        "renamed",
        "wechat",
        r#"scopes = ["snsapi_login"]
token_endpoint_auth = "client_secret_post"
client_id_param = "appid"
client_secret_param = "secret"
scope_separator = ","
pkce = false
userinfo = { token_in = "query:access_token" }
claims = { subject = "token:/openid", name = "/nickname", avatar_url = "/headimgurl" }"#,
    ),
    // TikTok's `client_key`, more authorize parameters, a userinfo query.
    (
        "queried",
        "tiktok",
        r#"scopes = ["user.info.basic"]
token_endpoint_auth = "client_secret_post"
client_id_param = "client_key"
scope_separator = ","
authorization_params = { disable_auto_auth = "1" }
userinfo = { query = { fields = "open_id,avatar_url,display_name" } }
claims = { subject = "/data/user/open_id", name = "/data/user/display_name" }"#,
    ),
    // Dropbox reads the user by POST.
    (
        "posted",
        "dropbox",
        r#"scopes = ["account_info.read"]
token_endpoint_auth = "client_secret_post"
trust_email_verified = true
userinfo = { method = "POST" }
claims = { subject = "/account_id", email = "/email", email_verified = ["/email_verified"], name = "/name/display_name" }"#,
    ),
    // Amazon's token header.
    (
        "own-header",
        "amazon",
        r#"scopes = ["profile"]
token_endpoint_auth = "client_secret_post"
userinfo = { token_in = "header:x-amz-access-token" }
claims = { subject = "/user_id", email = "/email", name = "/name" }"#,
    ),
    // HubSpot's token in the path.
    (
        "in-path",
        "hubspot",
        r#"scopes = ["oauth"]
token_endpoint_auth = "client_secret_post"
userinfo = { token_in = "path" }
claims = { subject = "/user_id", email = "/user" }"#,
    ),
    // Atlassian takes a JSON token request; a header of the operator's goes with it.
    (
        "json-body",
        "atlassian",
        r#"scopes = ["read:me"]
token_endpoint_auth = "client_secret_post"
authorization_params = { audience = "api.atlassian.com", prompt = "consent" }
token_request = { format = "json", headers = { "X-Operator" = "knobs" } }
claims = { subject = "/account_id", email = "/email", name = "/name" }"#,
    ),
    // Bitbucket's addresses come from a second call.
    (
        "listed",
        "bitbucket",
        r#"scopes = ["account", "email"]
token_endpoint_auth = "client_secret_basic"
trust_email_verified = true
emails = { list = "/values", address = "/email", primary = "/is_primary", verified = "/is_confirmed" }
claims = { subject = "/uuid", name = "/display_name" }"#,
    ),
    // Kakao's two flags must both hold.
    (
        "two-flags",
        "kakao",
        r#"scopes = ["account_email"]
token_endpoint_auth = "client_secret_post"
trust_email_verified = true
claims = { subject = "/id", email = "/kakao_account/email", email_verified = ["/kakao_account/is_email_valid", "/kakao_account/is_email_verified"], name = "/kakao_account/profile/nickname" }"#,
    ),
    // Twitch answers the scope as an array.
    (
        "scope-array",
        "twitch",
        r#"scopes = ["openid", "user:read:email"]
token_endpoint_auth = "client_secret_post"
trust_email_verified = true
claims = { subject = "/sub", email = "/email", email_verified = ["/email_verified"], name = "/preferred_username" }"#,
    ),
    // GitHub's API wants a User-Agent; the operator names theirs.
    (
        "own-agent",
        "github",
        r#"scopes = ["read:user"]
token_endpoint_auth = "client_secret_basic"
user_agent = "knobs-test/1.0"
userinfo = { headers = { Accept = "application/vnd.github+json" } }
claims = { subject = "/id", name = "/name" }"#,
    ),
    // Linear's GraphQL: the user read by a POST with a body.
    (
        "graphql",
        "linear",
        r#"scopes = ["read"]
scope_separator = ","
token_endpoint_auth = "client_secret_post"
userinfo = { method = "POST", body = '{"query":"{ viewer { id name email } }"}' }
claims = { subject = "/data/viewer/id", email = "/data/viewer/email", name = "/data/viewer/name" }"#,
    ),
];

/// The providers of this file, added to the app's settings as a configuration file would.
fn with_knobs(settings: &mut Settings, sim: &SimulatorHandle) {
    let mut tables: Vec<String> = TABLES
        .iter()
        .map(|(key, dialect, rest)| table(sim, key, dialect, &format!("kind = \"oauth2\"\n{rest}")))
        .collect();
    // LINE signs its id_tokens HS256 with the client secret.
    let line = sim.endpoints(Provider::simulated("line"));
    tables.push(format!(
        "[oauth_providers.hs256]\nkind = \"oidc\"\nissuer = \"{issuer}\"\n\
         client_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\n\
         redirect_uri = \"{redirect}\"\ntoken_endpoint_auth = \"client_secret_post\"\n\
         id_token_signing = \"client_secret\"\n",
        issuer = line.issuer.expect("LINE signs"),
        redirect = redirect_uri("line"),
    ));
    let text = format!("secret_key = \"{SECRET_KEY}\"\n{}", tables.join("\n"));
    let parsed = Settings::from_toml(&text).expect("the knob tables parse");
    for (key, config) in parsed.oauth_providers.configured() {
        settings.oauth_providers.insert(key, config.clone());
    }
}

fn knobs() -> Options {
    Options {
        with_simulator: with_knobs,
        ..Options::default()
    }
}

/// The first request `simulated` received at `endpoint`.
fn received(
    app: &TestApp,
    simulated: &'static str,
    endpoint: Endpoint,
) -> social_login_simulator::RequestRecord {
    let provider = Provider::simulated(simulated);
    app.sim
        .requests()
        .into_iter()
        .find(|r| r.provider == Some(provider) && r.endpoint == Some(endpoint))
        .unwrap_or_else(|| panic!("no {endpoint:?} request at {simulated}"))
}

#[tokio::test]
async fn every_knob_signs_in_a_provider_that_needs_it() {
    let app = spawn_app_with(knobs()).await;
    // (key, whose address it gives and whether the provider vouches for it)
    let expected: [(&str, Option<bool>); 12] = [
        ("renamed", None),
        ("queried", None),
        ("posted", Some(true)),
        ("own-header", Some(false)),
        ("in-path", Some(false)),
        ("json-body", Some(false)),
        ("listed", Some(true)),
        ("two-flags", Some(true)),
        ("scope-array", Some(true)),
        ("own-agent", None),
        ("graphql", Some(false)),
        ("hs256", Some(false)),
    ];
    for (n, (key, address)) in expected.into_iter().enumerate() {
        // A person of their own at each, so no address is held already.
        let id = (2_000_000 + n).to_string();
        let email = format!("{key}@example.com");
        app.sim.add_user(
            SimUser::new(&id, key)
                .with_name("Grace Hopper")
                .with_email(&email, true),
        );
        let login = ok_json(app.login_response_at(key, &id).await).await;
        let user = &login["user"];
        // HubSpot's token metadata has no name.
        if key != "in-path" {
            assert_eq!(user["full_name"], "Grace Hopper", "{key}: {login}");
        }
        match address {
            Some(verified) => {
                assert_eq!(user["email"], email.as_str(), "{key}");
                assert_eq!(user["email_verified"], verified, "{key}");
            }
            None => assert!(user["email"].is_null(), "{key}: {login}"),
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn what_each_provider_received_shows_its_knob() {
    let app = spawn_app_with(knobs()).await;
    let url = app.authorize("queried", None).await;
    assert!(url.contains("client_key=e2e-client"), "{url}");
    assert!(url.contains("disable_auto_auth=1"), "{url}");
    assert!(!url.contains("client_id="), "{url}");
    let url = app.authorize("json-body", None).await;
    assert!(url.contains("audience=api.atlassian.com"), "{url}");
    for key in ["renamed", "json-body", "own-agent"] {
        app.login_at(key, "1000001").await;
    }
    let token = received(&app, "wechat", Endpoint::Token);
    assert_eq!(token.client_id.as_deref(), Some(CLIENT_ID), "read as appid");
    assert_eq!(token.outcome, "ok", "the secret read as `secret`");
    let json = received(&app, "atlassian", Endpoint::Token);
    assert_eq!(json.content_type.as_deref(), Some("application/json"));
    let agent = received(&app, "github", Endpoint::Userinfo);
    assert_eq!(agent.user_agent.as_deref(), Some("knobs-test/1.0"));
    app.stop().await;
}
