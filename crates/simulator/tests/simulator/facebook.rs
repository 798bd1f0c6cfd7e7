//! The simulated Facebook: what its dialect and hooks add to what every provider does (see
//! `dialects`): the dialog's denial, the exchange by GET, the Graph version segment, the
//! Graph error envelope, `/me` behind `appsecret_proof`, and the de-authorization.

use crate::support::fixtures::{FACEBOOK, start};
use crate::support::{Params, http, proof, status_and_json};
use social_login_simulator::Provider;

#[tokio::test]
async fn a_cancelled_dialog_goes_back_with_facebooks_error_parameters() {
    let client = FACEBOOK.started().await;
    let answer = client
        .answer(&client.valid(FACEBOOK.scope).set("sim_deny", "1"))
        .await;
    let fields = answer.fields(["error", "error_reason", "error_code", "error_description"]);
    let denied = [
        Some("access_denied"),
        Some("user_denied"),
        Some("200"),
        Some("Permissions error"),
    ];
    assert_eq!(fields, denied);
}

#[tokio::test]
async fn the_code_is_exchanged_by_get_with_the_parameters_in_the_query() {
    let sim = start(&[FACEBOOK]).await;
    let client = FACEBOOK.client(&sim);
    let code = client.code(FACEBOOK.scope).await;
    let url =
        url::Url::parse_with_params(&client.urls().token, &client.token_form(&code).0).unwrap();
    let (status, body) = client.get(url.as_str(), None).await;
    assert_eq!((status, body["token_type"].as_str()), (200, Some("bearer")));
    assert_eq!(
        sim.requests().pop().unwrap().api_version.as_deref(),
        Some("v24.0")
    );
}

#[tokio::test]
async fn any_graph_version_is_taken_and_recorded_but_not_a_malformed_one() {
    let sim = start(&[FACEBOOK]).await;
    let client = FACEBOOK.client(&sim);
    let dialog = client.urls().authorization;
    let older = dialog.replace("v24.0", "v19.0");
    let params = client.valid(FACEBOOK.scope);
    let response = http()
        .get(url::Url::parse_with_params(&older, &params.0).unwrap())
        .send()
        .await;
    assert_eq!(response.unwrap().status(), 302);
    assert_eq!(
        sim.requests().pop().unwrap().api_version.as_deref(),
        Some("v19.0")
    );
    let malformed = dialog.replace("v24.0", "latest");
    let response = http()
        .get(url::Url::parse_with_params(&malformed, &params.0).unwrap())
        .send()
        .await;
    assert_eq!(response.unwrap().status(), 404);
    let token = client.urls().token.replace("v24.0", "latest");
    let (status, body) = client.post(&token, &Params::default(), None).await;
    assert_eq!((status, body["error"]["code"].as_u64()), (400, Some(2500)));
}

#[tokio::test]
async fn refusals_come_in_the_graph_envelope() {
    let client = FACEBOOK.started().await;
    let code = client.code(FACEBOOK.scope).await;
    let form = client
        .token_form(&code)
        .set("redirect_uri", "http://127.0.0.1:4000/other");
    let (_, body) = client.token(&form).await;
    assert_eq!(body["error"]["type"], "OAuthException");
    assert_eq!(
        (
            body["error"]["code"].as_u64(),
            body["error"]["error_subcode"].as_u64()
        ),
        (Some(100), Some(36008))
    );
    assert!(body["error"]["fbtrace_id"].is_string());
    let (status, body) = client.exchange(&code, |f| f.unset("redirect_uri")).await;
    assert_eq!((status, body["error"]["code"].as_u64()), (400, Some(191)));
}

#[tokio::test]
async fn me_answers_the_requested_fields_with_a_correct_proof_only() {
    let client = FACEBOOK.started().await;
    let token = client.access_token(FACEBOOK.scope).await;
    let me = |query: &[(&str, &str)]| {
        let url = url::Url::parse_with_params(&client.urls().userinfo.unwrap(), query).unwrap();
        status_and_json(http().get(url).bearer_auth(&token))
    };
    let right = proof(FACEBOOK.secret, &token);
    let (status, body) = me(&[
        ("fields", "id,name,email,picture"),
        ("appsecret_proof", &right),
    ])
    .await;
    assert_eq!(
        (status, body["email"].as_str()),
        (200, Some("ada@example.com"))
    );
    assert_eq!(body["picture"]["data"]["is_silhouette"], true);
    assert!(body.get("first_name").is_none(), "only what was asked for");
    let (_, body) = me(&[("appsecret_proof", &right)]).await;
    assert_eq!(
        body.as_object().unwrap().len(),
        2,
        "id and name by default: {body}"
    );
    let (status, body) = me(&[("fields", "id")]).await;
    assert_eq!(
        (status, body["error"]["type"].as_str()),
        (400, Some("GraphMethodException"))
    );
    let wrong = proof(FACEBOOK.secret, "another-token");
    let (_, body) = me(&[("appsecret_proof", &wrong)]).await;
    assert_eq!(
        body["error"]["message"],
        "Invalid appsecret_proof provided in the API argument"
    );
    let (_, body) = me(&[("fields", "birthday"), ("appsecret_proof", &right)]).await;
    assert_eq!(body["error"]["code"], 100);
}

#[tokio::test]
async fn the_app_is_deauthorized_with_the_users_token_and_proof() {
    let sim = start(&[FACEBOOK]).await;
    let client = FACEBOOK.client(&sim);
    let token = client.access_token(FACEBOOK.scope).await;
    let url = client.urls().revocation.unwrap();
    let with = |params: &[(&str, &str)]| url::Url::parse_with_params(&url, params).unwrap();
    let no_proof = http().delete(with(&[("access_token", &token)]));
    assert_eq!(status_and_json(no_proof).await.0, 400);
    let right = proof(FACEBOOK.secret, &token);
    let request = http().delete(with(&[
        ("access_token", &token),
        ("appsecret_proof", &right),
    ]));
    let (status, body) = status_and_json(request).await;
    assert_eq!((status, body["success"].as_bool()), (200, Some(true)));
    assert_eq!(sim.revocations()[0].provider, Provider::Facebook);
    assert!(!sim.issued_access_tokens().contains(&token));
}
