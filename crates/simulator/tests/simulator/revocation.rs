//! Every provider's revocation endpoint: it checks the client and the token like the real
//! one, revokes, records what it revoked, and takes an injected fault like the others.

use crate::support::{CHALLENGE, VERIFIER, get_bearer, http, redirect_query, status_and_json};
use serde_json::Value;
use social_login_simulator::{
    Endpoint, Fault, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle, TokenKind,
};

const SECRET: &str = "revocation-secret";
const CALLBACK: &str = "http://127.0.0.1:4000/cb";

fn client_id(provider: Provider) -> String {
    format!("{}-app", provider.prefix())
}

async fn start() -> SimulatorHandle {
    let mut config = SimulatorConfig::default().with_user(
        SimUser::new("4242", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true),
    );
    for provider in [
        Provider::Google,
        Provider::Github,
        Provider::Facebook,
        Provider::Discord,
        Provider::Twitter,
        Provider::Linkedin,
    ] {
        config = config.with_client(RegisteredClient::new(
            provider,
            client_id(provider),
            SECRET,
            CALLBACK,
        ));
    }
    Simulator::start(config).await.expect("simulator starts")
}

/// Runs the code flow at `provider` and returns the token answer.
async fn tokens(sim: &SimulatorHandle, provider: Provider) -> Value {
    let id = client_id(provider);
    let (authorize, token, scope) = match provider {
        Provider::Google => (
            sim.google().authorization,
            sim.google().token,
            "openid email",
        ),
        Provider::Github => (sim.github().authorization, sim.github().token, "read:user"),
        Provider::Facebook => (sim.facebook().authorization, sim.facebook().token, "email"),
        Provider::Discord => (
            sim.discord().authorization,
            sim.discord().token,
            "identify email",
        ),
        Provider::Twitter => (
            sim.twitter().authorization,
            sim.twitter().token,
            "tweet.read users.read offline.access",
        ),
        _ => (
            sim.linkedin().authorization,
            sim.linkedin().token,
            "openid profile",
        ),
    };
    let params = [
        ("client_id", id.as_str()),
        ("redirect_uri", CALLBACK),
        ("response_type", "code"),
        ("scope", scope),
        ("state", "st"),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ];
    let url = url::Url::parse_with_params(&authorize, &params).unwrap();
    let query = redirect_query(&http().get(url).send().await.unwrap());
    let form = [
        ("grant_type", "authorization_code"),
        ("code", query["code"].as_str()),
        ("redirect_uri", CALLBACK),
        ("code_verifier", VERIFIER),
        ("client_id", id.as_str()),
    ];
    let request = http().post(token).header("accept", "application/json");
    // X wants HTTP Basic of a confidential client; the others take the secret in the body.
    let request = match provider {
        Provider::Twitter => request.basic_auth(&id, Some(SECRET)).form(&form[..4]),
        _ => request.form(&[&form[..], &[("client_secret", SECRET)]].concat()),
    };
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 200, "{provider:?}: {body}");
    body
}

fn access(body: &Value) -> String {
    body["access_token"].as_str().unwrap().to_owned()
}

/// POSTs a revocation form with the client's credentials in the body.
async fn post_revoke(url: &str, provider: Provider, token: &str, hint: &str) -> (u16, Value) {
    let id = client_id(provider);
    let form = [
        ("token", token),
        ("token_type_hint", hint),
        ("client_id", &id),
        ("client_secret", SECRET),
    ];
    status_and_json(http().post(url).form(&form)).await
}

#[tokio::test]
async fn google_revokes_a_known_token_and_refuses_an_unknown_one() {
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Google).await);
    let url = sim.google().revocation;
    let (status, _) = status_and_json(http().post(&url).form(&[("token", token.as_str())])).await;
    assert_eq!(status, 200);
    assert_eq!(get_bearer(&sim.google().userinfo, &token).await.0, 401);
    let (status, body) =
        status_and_json(http().post(&url).form(&[("token", token.as_str())])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_token"))
    );
    let revoked = sim.revocations();
    assert_eq!(revoked.len(), 1, "a refused revocation is not recorded");
    assert_eq!(
        (revoked[0].provider, revoked[0].kind),
        (Provider::Google, Some(TokenKind::Access))
    );
    assert_eq!(revoked[0].token, token);
}

#[tokio::test]
async fn github_revokes_a_grant_with_basic_credentials_only() {
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Github).await);
    let id = client_id(Provider::Github);
    let url = sim.github().revocation.replace("{client_id}", &id);
    let body = serde_json::json!({ "access_token": token });
    let wrong = http()
        .delete(&url)
        .basic_auth(&id, Some("guess"))
        .json(&body);
    assert_eq!(status_and_json(wrong).await.0, 404);
    let right = http()
        .delete(&url)
        .basic_auth(&id, Some(SECRET))
        .json(&body);
    assert_eq!(status_and_json(right).await.0, 204);
    let revoked = &sim.revocations()[0];
    assert_eq!(
        (revoked.provider, revoked.kind),
        (Provider::Github, Some(TokenKind::Access))
    );
    assert!(!sim.issued_access_tokens().contains(&token));
}

#[tokio::test]
async fn facebook_deauthorizes_the_app_for_the_users_token_and_proof() {
    use hmac::{Hmac, KeyInit, Mac};
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Facebook).await);
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(token.as_bytes());
    let proof = hex::encode(mac.finalize().into_bytes());
    let url = sim.facebook().revocation;
    let with = |params: &[(&str, &str)]| url::Url::parse_with_params(&url, params).unwrap();
    let no_proof = http().delete(with(&[("access_token", &token)]));
    assert_eq!(status_and_json(no_proof).await.0, 400);
    let request = http().delete(with(&[
        ("access_token", &token),
        ("appsecret_proof", &proof),
    ]));
    let (status, body) = status_and_json(request).await;
    assert_eq!((status, body["success"].as_bool()), (200, Some(true)));
    assert_eq!(sim.revocations()[0].provider, Provider::Facebook);
    assert!(!sim.issued_access_tokens().contains(&token));
}

#[tokio::test]
async fn discord_revoking_the_refresh_token_revokes_the_whole_authorization() {
    let sim = start().await;
    let body = tokens(&sim, Provider::Discord).await;
    let refresh = body["refresh_token"].as_str().unwrap();
    let url = sim.discord().revocation;
    let (status, _) = post_revoke(&url, Provider::Discord, refresh, "refresh_token").await;
    assert_eq!(status, 200);
    assert_eq!(get_bearer(&sim.discord().user, &access(&body)).await.0, 401);
    let revoked = &sim.revocations()[0];
    assert_eq!(revoked.hint.as_deref(), Some("refresh_token"));
    assert_eq!(revoked.kind, Some(TokenKind::Refresh));
    // An unknown token is answered 200 too (RFC 7009), recorded as nothing found.
    let (status, _) = post_revoke(&url, Provider::Discord, "nope", "access_token").await;
    assert_eq!((status, sim.revocations()[1].kind), (200, None));
}

#[tokio::test]
async fn x_revokes_with_basic_and_refuses_body_credentials_of_a_confidential_client() {
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Twitter).await);
    let url = sim.twitter().revocation;
    let (status, _) = post_revoke(&url, Provider::Twitter, &token, "access_token").await;
    assert_eq!(status, 401);
    let id = client_id(Provider::Twitter);
    let request = http()
        .post(&url)
        .basic_auth(&id, Some(SECRET))
        .form(&[("token", token.as_str())]);
    let (status, body) = status_and_json(request).await;
    assert_eq!((status, body["revoked"].as_bool()), (200, Some(true)));
    assert_eq!(sim.revocations()[0].kind, Some(TokenKind::Access));
    assert_eq!(get_bearer(&sim.twitter().user, &token).await.0, 401);
}

#[tokio::test]
async fn linkedin_revokes_with_body_credentials() {
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Linkedin).await);
    let url = sim.linkedin().revocation;
    let (status, _) = post_revoke(&url, Provider::Linkedin, &token, "access_token").await;
    assert_eq!(status, 200);
    assert_eq!(sim.revocations()[0].provider, Provider::Linkedin);
    assert_eq!(get_bearer(&sim.linkedin().userinfo, &token).await.0, 401);
}

#[tokio::test]
async fn a_fault_on_the_revocation_endpoint_answers_instead_and_revokes_nothing() {
    let sim = start().await;
    let token = access(&tokens(&sim, Provider::Discord).await);
    sim.set_fault(Fault::new(Provider::Discord, Endpoint::Revoke).status(500));
    let url = sim.discord().revocation;
    let (status, _) = post_revoke(&url, Provider::Discord, &token, "access_token").await;
    assert_eq!(status, 500);
    assert!(sim.revocations().is_empty());
    assert_eq!(get_bearer(&sim.discord().user, &token).await.0, 200);
}
