//! The simulated Microsoft: what its dialect and hooks add to what every provider does (see
//! `dialects`): tenant paths (their discovery, who they admit), keys without `alg`, the
//! AADSTS envelope, and id_tokens of the user's own tenant with a pairwise subject.

use crate::support::fixtures::{MICROSOFT, config, start_with};
use crate::support::{OTHER_VERIFIER, claims_of};
use serde_json::{Value, json};
use social_login_simulator::{
    MICROSOFT_CONSUMER_TENANT, MicrosoftAccount, Provider, RegisteredClient, SimUser,
    SimulatorHandle,
};

const CONTOSO: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OTHER_CLIENT: &str = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

/// Ada has a personal account; Grace a work account at Contoso.
async fn start() -> SimulatorHandle {
    let grace = SimUser::new("grace-7", "grace")
        .with_name("Grace Hopper")
        .with_microsoft(MicrosoftAccount::work(CONTOSO, "grace@contoso.com").with_xms_edov("1"));
    let other = RegisteredClient::new(
        Provider::Microsoft,
        OTHER_CLIENT,
        MICROSOFT.secret,
        MICROSOFT.callback,
    );
    start_with(config(&[MICROSOFT]).with_user(grace).with_client(other)).await
}

/// Asserts a refusal with `status` in Microsoft's error envelope with `error` and AADSTS
/// `number`.
fn assert_aadsts_refusal(answer: &(u16, Value), status: u16, error: &str, number: u64) {
    assert_eq!(answer.0, status);
    assert_aadsts(&answer.1, error, number);
}

/// Asserts Microsoft's error envelope with `error` and AADSTS `number`.
fn assert_aadsts(body: &Value, error: &str, number: u64) {
    assert_eq!(body["error"], error);
    assert_eq!(body["error_codes"], json!([number]));
    let description = body["error_description"].as_str().unwrap();
    assert!(
        description.starts_with(&format!("AADSTS{number}: ")),
        "{description}"
    );
    assert!(description.contains(body["trace_id"].as_str().unwrap()));
    for field in ["timestamp", "trace_id", "correlation_id", "error_uri"] {
        assert!(body[field].is_string(), "{field}");
    }
}

#[tokio::test]
async fn each_tenant_paths_discovery_names_its_issuer_and_an_unknown_one_is_not_found() {
    let sim = start().await;
    let client = MICROSOFT.client(&sim);
    let template = sim.microsoft().issuer;
    assert!(template.contains("{tenantid}"));
    for (tenant, issuer) in [
        ("common", template.clone()),
        ("organizations", template.clone()),
        (
            "consumers",
            sim.microsoft().issuer_of(MICROSOFT_CONSUMER_TENANT),
        ),
        (CONTOSO, sim.microsoft().issuer_of(CONTOSO)),
    ] {
        let urls = sim.microsoft_tenant(tenant);
        let (status, document) = client.get(&urls.discovery, None).await;
        assert_eq!(
            (status, &document["issuer"]),
            (200, &json!(issuer)),
            "{tenant}"
        );
        assert_eq!(document["token_endpoint"], urls.token);
    }
    let refused = client
        .get(&sim.microsoft_tenant("contoso").discovery, None)
        .await;
    assert_aadsts_refusal(&refused, 400, "invalid_tenant", 90002);
}

#[tokio::test]
async fn the_key_set_lists_keys_without_alg_but_with_the_issuer_template() {
    let sim = start().await;
    let (_, body) = MICROSOFT
        .client(&sim)
        .get(&sim.microsoft().jwks, None)
        .await;
    let key = &body["keys"][0];
    assert_eq!(
        (key["kty"].as_str(), key["use"].as_str()),
        (Some("RSA"), Some("sig"))
    );
    assert!(key.get("alg").is_none());
    assert_eq!(key["issuer"], sim.microsoft().issuer);
}

#[tokio::test]
async fn each_tenant_path_admits_only_its_own_accounts_at_authorize_and_token() {
    let sim = start().await;
    let client = MICROSOFT.client(&sim);
    for (tenant, user, admitted) in [
        ("common", "ada", true),
        ("common", "grace", true),
        ("consumers", "ada", true),
        ("consumers", "grace", false),
        ("organizations", "ada", false),
        ("organizations", "grace", true),
        (CONTOSO, "grace", true),
        (CONTOSO, "ada", false),
    ] {
        let urls = sim.microsoft_tenant(tenant);
        let params = client.valid(MICROSOFT.scope).and("sim_user", user);
        let url = url::Url::parse_with_params(&urls.authorization, &params.0).unwrap();
        let response = crate::support::http().get(url).send().await.unwrap();
        let expected = if admitted { 302 } else { 400 };
        assert_eq!(response.status(), expected, "{tenant} {user}");
    }
    // A personal account's code from `common` is refused at `organizations`.
    let code = client.code("openid").await;
    let organizations = sim.microsoft_tenant("organizations").token;
    let refused = client
        .post(&organizations, &client.token_form(&code), None)
        .await;
    assert_aadsts_refusal(&refused, 400, "invalid_grant", 50020);
}

#[tokio::test]
async fn refusals_carry_the_aadsts_envelope_with_their_own_numbers() {
    let sim = start().await;
    let client = MICROSOFT.client(&sim);
    let code = client.code("openid").await;
    let (_, body) = client
        .exchange(&code, |f| f.set("code_verifier", OTHER_VERIFIER))
        .await;
    assert_aadsts(&body, "invalid_grant", 501481);
    assert_aadsts(&client.redeem(&code).await.1, "invalid_grant", 70000);
    let code = client.code("openid").await;
    let refused = client
        .exchange(&code, |f| f.set("client_secret", "guess"))
        .await;
    assert_aadsts_refusal(&refused, 401, "invalid_client", 7000215);
    let (_, body) = client
        .exchange(&code, |f| {
            f.set("redirect_uri", "http://127.0.0.1:4000/other")
        })
        .await;
    assert_aadsts(&body, "invalid_grant", 50011);
    let unknown_app = client
        .authorize(&client.valid("openid").set("client_id", "nobody"))
        .await;
    assert!(
        unknown_app
            .text()
            .await
            .unwrap()
            .starts_with("AADSTS700016")
    );
}

#[tokio::test]
async fn the_id_token_names_the_users_own_tenant_and_what_the_app_registration_asks_for() {
    let sim = start().await;
    let client = MICROSOFT.client(&sim);
    let params = client
        .valid("openid profile email offline_access")
        .and("sim_user", "grace");
    let code = client.answer(&params).await.get("code").unwrap().to_owned();
    let (_, body) = client.redeem(&code).await;
    assert_eq!(body["ext_expires_in"], 3599);
    assert!(body["refresh_token"].as_str().unwrap().starts_with("M.C5_"));
    let claims = claims_of(body["id_token"].as_str().unwrap());
    assert_eq!(claims["iss"], sim.microsoft().issuer_of(CONTOSO));
    assert_eq!(
        (claims["tid"].as_str(), claims["ver"].as_str()),
        (Some(CONTOSO), Some("2.0"))
    );
    assert_eq!(claims["nonce"], crate::support::NONCE);
    assert_eq!(claims["preferred_username"], "grace@contoso.com");
    assert_eq!(claims["xms_edov"], "1");
    assert!(claims.get("email").is_none(), "grace has no email");
    assert_eq!(claims["oid"].as_str().unwrap().len(), 36);
}

#[tokio::test]
async fn the_subject_is_pairwise_per_app_but_the_object_id_is_not() {
    let sim = start().await;
    let client = MICROSOFT.client(&sim);
    let mut seen = Vec::new();
    for app in [MICROSOFT.id, OTHER_CLIENT] {
        let code = client
            .answer(&client.valid("openid profile").set("client_id", app))
            .await;
        let form = client
            .token_form(code.get("code").unwrap())
            .set("client_id", app);
        seen.push(claims_of(
            client.token(&form).await.1["id_token"].as_str().unwrap(),
        ));
    }
    assert_ne!(seen[0]["sub"], seen[1]["sub"]);
    assert_eq!(seen[0]["oid"], seen[1]["oid"]);
    assert_eq!(seen[0]["tid"], MICROSOFT_CONSUMER_TENANT);
    assert!(
        seen[0]["oid"]
            .as_str()
            .unwrap()
            .starts_with("00000000-0000-0000-")
    );
}
