//! The token endpoints: the answer each gives a good exchange, and each one's status and
//! error for the same mistakes (the error as the simulator logs it: the OAuth `error`, or
//! Facebook's `<type>_<code>[_<subcode>]`). GitHub answers its errors with HTTP 200.

use super::expected::{self, Answer};
use crate::support::fixtures::{ALL, Auth, config, start, start_with};
use crate::support::{OTHER_VERIFIER, SimClient, http};
use serde_json::Value;
use social_login_simulator::{ClientAuthKind, Endpoint, SimulatorHandle};
use std::time::Duration;

/// What a test gets wrong in an otherwise good exchange of a fresh code.
#[derive(Debug, Clone, Copy)]
enum Mistake {
    /// None: the exchange as the client makes it.
    Nothing,
    /// The same code a second time.
    Reuse,
    OtherVerifier,
    NoVerifier,
    /// A client id the provider does not know.
    UnknownClient,
    /// A callback other than the authorization's.
    OtherCallback,
    /// The form as a JSON body.
    Json,
    /// The credentials as HTTP Basic only.
    BasicOnly,
    /// The credentials in the form only.
    BodyOnly,
    WrongSecret,
}

async fn attempt(client: &SimClient<'_>, mistake: Mistake) -> (u16, Value) {
    let f = client.fixture;
    let code = client.code(f.scope).await;
    let form = client.token_form(&code);
    let urls = client.urls();
    match mistake {
        Mistake::Nothing => client.token(&form).await,
        Mistake::Reuse => {
            assert_eq!(client.token(&form).await.0, 200, "{:?}", f.provider);
            client.redeem(&code).await
        }
        Mistake::OtherVerifier => {
            client
                .token(&form.set("code_verifier", OTHER_VERIFIER))
                .await
        }
        Mistake::NoVerifier => client.token(&form.unset("code_verifier")).await,
        Mistake::UnknownClient if f.auth == Auth::Basic => {
            client
                .post(&urls.token, &form, Some(("nobody", f.secret)))
                .await
        }
        Mistake::UnknownClient => client.token(&form.set("client_id", "nobody")).await,
        Mistake::OtherCallback => {
            client
                .token(&form.set("redirect_uri", "http://127.0.0.1:4000/other"))
                .await
        }
        Mistake::Json => {
            let body: serde_json::Map<String, Value> =
                form.0.into_iter().map(|(k, v)| (k, v.into())).collect();
            let request = http()
                .post(&urls.token)
                .header("accept", "application/json")
                .json(&body);
            crate::support::status_and_json(request).await
        }
        Mistake::BasicOnly => {
            let form = form.unset("client_id").unset("client_secret");
            client
                .post(&urls.token, &form, Some((f.id, f.secret)))
                .await
        }
        Mistake::BodyOnly => {
            let form = form.set("client_id", f.id).set("client_secret", f.secret);
            client.post(&urls.token, &form, None).await
        }
        Mistake::WrongSecret if f.auth == Auth::Basic => {
            client.post(&urls.token, &form, Some((f.id, "guess"))).await
        }
        Mistake::WrongSecret => client.token(&form.set("client_secret", "guess")).await,
    }
}

/// Checks each provider's answer to `mistake` against its expected one (named in
/// `expected.toml` by `name`), and that no access token comes with a refusal.
async fn each_answers(sim: &SimulatorHandle, mistake: Mistake, name: &str) {
    for fixture in ALL {
        let client = fixture.client(sim);
        let (status, body) = attempt(&client, mistake).await;
        let provider = fixture.provider;
        let got = Answer(status, client.last_outcome());
        let wanted = &expected::of(provider).mistakes[name];
        assert_eq!(&got, wanted, "{provider:?} {mistake:?}: {body}");
        assert_eq!(
            body["access_token"].is_string(),
            got.1 == "ok",
            "{provider:?} {mistake:?}"
        );
    }
}

#[tokio::test]
async fn a_code_is_exchanged_for_the_providers_own_token_answer() {
    let sim = start(&ALL).await;
    for fixture in ALL {
        let body = fixture.client(&sim).tokens(fixture.scope).await;
        let wanted = &expected::of(fixture.provider).token_answer;
        let provider = fixture.provider;
        // The type, lifetime and scope as given, and which other tokens come along.
        let answered = (
            body["token_type"].as_str(),
            body["expires_in"].as_u64(),
            body["scope"].as_str(),
            body["refresh_token"].is_string(),
            body["id_token"].is_string(),
        );
        let declared = (
            Some(wanted.token_type.as_str()),
            wanted.expires_in,
            wanted.scope.as_deref(),
            wanted.refresh,
            wanted.id_token,
        );
        assert_eq!(answered, declared, "{provider:?}");
        let access_token = body["access_token"].as_str().unwrap();
        assert!(access_token.starts_with(&wanted.prefix), "{provider:?}");
        assert_eq!(access_token.len(), wanted.prefix.len() + 36);
    }
}

/// Every mistake but an expired code, with its name in `expected.toml`.
const MISTAKES: [(Mistake, &str); 9] = [
    (Mistake::Reuse, "reuse"),
    (Mistake::OtherVerifier, "other_verifier"),
    (Mistake::NoVerifier, "no_verifier"),
    (Mistake::UnknownClient, "unknown_client"),
    (Mistake::OtherCallback, "other_callback"),
    (Mistake::Json, "json"),
    (Mistake::BasicOnly, "basic_only"),
    (Mistake::BodyOnly, "body_only"),
    (Mistake::WrongSecret, "wrong_secret"),
];

#[tokio::test]
async fn each_mistake_in_a_token_request_gets_the_providers_own_answer() {
    let sim = start(&ALL).await;
    for (mistake, name) in MISTAKES {
        each_answers(&sim, mistake, name).await;
    }
}

#[tokio::test]
async fn http_basic_is_logged_as_such_where_the_provider_takes_it_or_not() {
    let sim = start(&ALL).await;
    each_answers(&sim, Mistake::BasicOnly, "basic_only").await;
    let token_requests = sim
        .requests()
        .into_iter()
        .filter(|r| r.endpoint == Some(Endpoint::Token));
    let logged: Vec<_> = token_requests.map(|r| r.client_auth).collect();
    assert_eq!(logged, [Some(ClientAuthKind::Basic); 10]);
}

#[tokio::test]
async fn an_expired_code_is_refused() {
    let config = config(&ALL)
        .with_code_ttl(Duration::ZERO)
        .with_twitter_code_ttl(Duration::ZERO);
    each_answers(&start_with(config).await, Mistake::Nothing, "expired").await;
}
