//! The simulated LinkedIn's token endpoint: credentials in the body only, LinkedIn's error
//! for a bad code, the PKCE knobs, and the control API that sets them.

use super::linkedin::{linkedin_code, token_form};
use super::support::*;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use social_login_simulator::{
    ClientAuthKind, Endpoint, LinkedinKnobs, LinkedinPkce, SimulatorHandle,
};

async fn exchange(sim: &SimulatorHandle, form: &[(&str, &str)]) -> (u16, serde_json::Value) {
    status_and_json(http().post(&sim.linkedin().token).form(form)).await
}

#[tokio::test]
async fn a_token_answer_lists_scopes_with_commas_and_lives_sixty_days() {
    let sim = start().await;
    let code = linkedin_code(&sim, "openid profile email").await;
    let (status, body) = exchange(&sim, &token_form(&code)).await;
    assert_eq!(status, 200);
    assert_eq!(body["scope"], "openid,profile,email");
    assert_eq!(body["expires_in"], 5_184_000);
    assert_eq!(body["token_type"], "Bearer");
    assert!(body["access_token"].as_str().unwrap().starts_with("AQV"));
    assert!(body.get("refresh_token").is_none());
}

#[tokio::test]
async fn http_basic_credentials_are_refused() {
    let sim = start().await;
    let code = linkedin_code(&sim, "openid").await;
    let form: Vec<_> = token_form(&code)
        .into_iter()
        .filter(|(k, _)| *k != "client_id" && *k != "client_secret")
        .collect();
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{LI_CLIENT}:{LI_SECRET}"))
    );
    let request = http()
        .post(&sim.linkedin().token)
        .header("authorization", basic)
        .form(&form);
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"], "invalid_client");
    let record = sim.requests().pop().unwrap();
    assert_eq!(record.endpoint, Some(Endpoint::Token));
    assert_eq!(record.client_auth, Some(ClientAuthKind::Basic));
}

#[tokio::test]
async fn a_reused_code_is_linkedins_invalid_request() {
    let sim = start().await;
    let code = linkedin_code(&sim, "openid").await;
    assert_eq!(exchange(&sim, &token_form(&code)).await.0, 200);
    let (status, body) = exchange(&sim, &token_form(&code)).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "invalid_request");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("authorization code")
    );
}

#[tokio::test]
async fn a_json_body_is_refused() {
    let sim = start().await;
    let code = linkedin_code(&sim, "openid").await;
    let body: std::collections::HashMap<_, _> = token_form(&code).into_iter().collect();
    let (status, answer) = status_and_json(http().post(&sim.linkedin().token).json(&body)).await;
    assert_eq!(status, 400);
    assert_eq!(answer["error"], "invalid_request");
}

#[tokio::test]
async fn by_default_pkce_is_recorded_but_not_checked() {
    let sim = start().await;
    let code = linkedin_code(&sim, "openid").await;
    let mut form = token_form(&code);
    form[5] = (
        "code_verifier",
        "not-the-verifier-0123456789-0123456789-0123",
    );
    assert_eq!(exchange(&sim, &form).await.0, 200);
    assert!(sim.requests().pop().unwrap().code_verifier_present);
}

#[tokio::test]
async fn an_enforcing_app_checks_the_verifier_and_requires_a_challenge() {
    let sim = start().await;
    sim.set_linkedin_knobs(LinkedinKnobs {
        pkce: LinkedinPkce::Enforce,
    });
    let code = linkedin_code(&sim, "openid").await;
    assert_eq!(exchange(&sim, &token_form(&code)).await.0, 200);

    let code = linkedin_code(&sim, "openid").await;
    let mut form = token_form(&code);
    form[5] = (
        "code_verifier",
        "not-the-verifier-0123456789-0123456789-0123",
    );
    assert_eq!(exchange(&sim, &form).await.0, 400);

    let no_challenge: Vec<_> = super::linkedin::authorize_params("openid")
        .into_iter()
        .filter(|(k, _)| !k.starts_with("code_challenge"))
        .collect();
    let query = redirect_query(&get(&sim.linkedin().authorization, &no_challenge).await);
    assert_eq!(query["error"], "invalid_request");
}

#[tokio::test]
async fn a_rejecting_app_refuses_any_code_verifier_set_through_the_control_api() {
    let sim = start().await;
    let control = format!("{}/_control/linkedin_knobs", sim.base_url());
    let response = http()
        .post(control)
        .json(&serde_json::json!({"pkce": "reject"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    let code = linkedin_code(&sim, "openid").await;
    let (status, body) = exchange(&sim, &token_form(&code)).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "invalid_request");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("code_verifier")
    );
    let without: Vec<_> = token_form(&code)
        .into_iter()
        .filter(|(k, _)| *k != "code_verifier")
        .collect();
    assert_eq!(
        exchange(&sim, &without).await.0,
        200,
        "the code was not burned"
    );
}
