//! Property tests of the code exchange on every answer a token endpoint could send: the
//! path all eight providers share (our bridge's judgement, oauth2's parser, our checks),
//! fed canned answers instead of a network call.

use super::*;
use crate::json_strategies::body_bytes;

use crate::token_http::token_answer;
use oauth2::{HttpRequest, HttpResponse};
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::ProviderKey;
use social_login_provider_spec::built_in_spec;
use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::LazyLock;
use std::task::{Context, Poll, Waker};

const ACCESS: &str = "ya29.a0-simulated-access-token";
const REFRESH: &str = "1//0g-simulated-refresh-token";
const ID_TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln";

/// A token answer as Google sends it; the other providers send a subset.
fn google_answer() -> Value {
    json!({
        "access_token": ACCESS, "token_type": "Bearer", "expires_in": 3599,
        "refresh_token": REFRESH, "scope": "openid email profile", "id_token": ID_TOKEN,
    })
}

/// The token endpoint's answer, as our bridge would have read it off the wire.
struct Canned {
    status: http::StatusCode,
    headers: http::HeaderMap,
    body: Vec<u8>,
}

impl<'c> AsyncHttpClient<'c> for Canned {
    type Error = TokenHttpError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, TokenHttpError>> + Send + 'c>>;

    fn call(&'c self, _request: HttpRequest) -> Self::Future {
        let answer = token_answer(self.status, self.headers.clone(), self.body.clone());
        Box::pin(async move { answer })
    }
}

/// Built once: a reqwest client is slow to build (it loads the TLS roots).
static FLOW: LazyLock<CodeFlow> = LazyLock::new(|| {
    let settings = crate::settings::test_settings();
    let google = built_in_spec(ProviderKey::GOOGLE).expect("google is built in");
    let plan = ProviderPlan::resolve(google, &settings).expect("a plan");
    CodeFlow::from_plan(&plan, crate::http_client::test_client())
});

/// Runs the exchange against `answer`. Nothing in it waits on I/O, so one poll finishes it.
fn exchange(flow: &CodeFlow, answer: &Canned) -> Result<TokenSet, ProviderError> {
    let code = SecretText::new("code-1");
    let verifier = SecretText::new("verifier-0123456789-0123456789-0123456789-abc");
    let future = pin!(flow.exchange(&flow.client, answer, &code, &verifier, &[]));
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(outcome) => outcome,
        Poll::Pending => panic!("a canned exchange does not wait"),
    }
}

fn status() -> impl Strategy<Value = http::StatusCode> {
    prop_oneof![
        6 => Just(200u16),
        1 => prop::sample::select(vec![201u16, 204, 302, 400, 401, 403, 429, 500, 502, 503]),
    ]
    .prop_map(|code| http::StatusCode::from_u16(code).unwrap())
}

fn headers() -> impl Strategy<Value = http::HeaderMap> {
    prop::option::of(prop::sample::select(vec![
        "application/json",
        "application/json; charset=utf-8",
        "text/html",
        "text/plain",
    ]))
    .prop_map(|content_type| {
        let mut headers = http::HeaderMap::new();
        if let Some(content_type) = content_type {
            headers.insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static(content_type),
            );
        }
        headers
    })
}

/// The string member `name` of a JSON object body, if the body is one.
fn member(body: &Value, name: &str) -> Option<String> {
    body.get(name).and_then(Value::as_str).map(str::to_owned)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No answer panics; a success carries exactly the tokens of a 2xx JSON answer without
    /// an `error` member; a failure is `CodeExchange` and repeats no token.
    #[test]
    fn only_a_real_token_answer_is_a_success(
        status in status(),
        headers in headers(),
        body in body_bytes(google_answer()),
    ) {
        let answer = Canned { status, headers, body };
        match exchange(&FLOW, &answer) {
            Ok(tokens) => {
                let body: Value = serde_json::from_slice(&answer.body)
                    .expect("a success comes from a JSON body");
                prop_assert!(status.is_success());
                prop_assert!(body.get("error").is_none());
                prop_assert!(!tokens.access_token.expose().is_empty());
                prop_assert_eq!(Some(tokens.access_token.expose().to_owned()), member(&body, "access_token"));
                prop_assert_eq!(tokens.refresh_token.map(|t| t.expose().to_owned()), member(&body, "refresh_token"));
                prop_assert_eq!(tokens.id_token.map(|t| t.expose().to_owned()), member(&body, "id_token"));
            }
            Err(ProviderError::CodeExchange(message)) => {
                for secret in [ACCESS, REFRESH, ID_TOKEN, "s3cret", "code-1"] {
                    prop_assert!(!message.contains(secret), "{}", message);
                }
            }
            Err(other) => prop_assert!(false, "not a code exchange failure: {:?}", other),
        }
    }
}

#[test]
fn the_unmutated_answer_is_a_success_with_every_token() {
    let answer = Canned {
        status: http::StatusCode::OK,
        headers: http::HeaderMap::new(),
        body: serde_json::to_vec(&google_answer()).unwrap(),
    };
    let tokens = exchange(&FLOW, &answer).unwrap();
    assert_eq!(tokens.access_token.expose(), ACCESS);
    assert_eq!(tokens.id_token.unwrap().expose(), ID_TOKEN);
}

#[test]
fn an_error_member_fails_even_beside_a_token() {
    let mut body = google_answer();
    body["error"] = json!("invalid_grant");
    let answer = Canned {
        status: http::StatusCode::OK,
        headers: http::HeaderMap::new(),
        body: serde_json::to_vec(&body).unwrap(),
    };
    assert_eq!(
        exchange(&FLOW, &answer).unwrap_err(),
        ProviderError::CodeExchange("token endpoint answered error `invalid_grant`".into())
    );
}
