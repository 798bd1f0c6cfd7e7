//! The bridge that lets oauth2 5 talk through our provider client ([`ProviderHttp`]).
//!
//! oauth2's own reqwest support is pinned to reqwest 0.12, so its default features are off
//! and this `AsyncHttpClient` does the call instead. It also enforces two rules every token
//! request needs: a body size cap, and "a JSON object with an `error` member is a failure
//! whatever the HTTP status" (GitHub answers errors with HTTP 200). A failure status
//! without such a member is reported by its number rather than as an unparseable body.

use crate::config_error::ProviderConfigError;
use crate::failure::error_member;
use crate::http_client::{CallKind, ProviderHttp, SendError};
use crate::quirks::Quirks;
use http::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use oauth2::{AsyncHttpClient, HttpRequest, HttpResponse};
use social_login_provider_spec::knobs::BodyFormat;
use social_login_provider_spec::{ProviderSpec, is_header_name, is_header_value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use url::form_urlencoded;

pub use crate::failure::{MAX_TOKEN_RESPONSE_BYTES, TokenHttpError};

/// The provider client as an oauth2 HTTP client, shaping each request as its provider
/// wants it. Cheap to clone (the pool and the shape are shared).
#[derive(Debug, Clone)]
pub struct TokenHttp {
    pub http: ProviderHttp,
    pub shape: Arc<TokenShape>,
    /// The provider's own token request and answer (`Quirks::token_request`,
    /// `Quirks::token_answer`).
    pub quirks: Arc<dyn Quirks>,
}

/// How one provider's token requests differ from RFC 6749's form: its own names for the
/// client parameters (TikTok's `client_key`), a JSON body (Notion, DingTalk), headers of
/// its own (Notion's version). The default changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenShape {
    /// (the RFC 6749 name, the provider's), only where they differ.
    renames: Vec<(&'static str, String)>,
    json: bool,
    headers: Vec<(HeaderName, HeaderValue)>,
}

impl TokenShape {
    /// The shape `spec` declares; a header name or value that is not one is named.
    pub fn of(spec: &ProviderSpec) -> Result<Self, ProviderConfigError> {
        let mut renames = Vec::new();
        for (standard, own) in [
            ("client_id", &spec.client_id_param),
            ("client_secret", &spec.client_secret_param),
        ] {
            if own != standard {
                renames.push((standard, own.clone()));
            }
        }
        Ok(Self {
            renames,
            json: spec.token_request.format == BodyFormat::Json,
            headers: header_pairs("token_request.headers", &spec.token_request.headers)?,
        })
    }

    /// `request` in this shape.
    fn apply(&self, mut request: HttpRequest) -> Result<HttpRequest, TokenHttpError> {
        if !self.renames.is_empty() || self.json {
            let pairs: Vec<(String, String)> = form_urlencoded::parse(request.body())
                .map(|(name, value)| {
                    let name = self
                        .renames
                        .iter()
                        .find(|(standard, _)| *standard == name)
                        .map_or_else(|| name.into_owned(), |(_, own)| own.clone());
                    (name, value.into_owned())
                })
                .collect();
            *request.body_mut() = if self.json {
                let object: serde_json::Map<String, serde_json::Value> = pairs
                    .into_iter()
                    .map(|(name, value)| (name, serde_json::Value::String(value)))
                    .collect();
                let headers = request.headers_mut();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                serde_json::to_vec(&object).map_err(|_| TokenHttpError::InvalidRequest)?
            } else {
                form_urlencoded::Serializer::new(String::new())
                    .extend_pairs(&pairs)
                    .finish()
                    .into_bytes()
            };
        }
        for (name, value) in &self.headers {
            request.headers_mut().insert(name.clone(), value.clone());
        }
        Ok(request)
    }
}

/// `headers` as header names and values; the first that is not one is named by `field`.
/// The rule is the declaration check's (`is_header_name`, `is_header_value`).
pub fn header_pairs(
    field: &'static str,
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<(HeaderName, HeaderValue)>, ProviderConfigError> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = is_header_name(name)
                .then(|| HeaderName::try_from(name.as_str()).ok())
                .flatten()
                .ok_or(ProviderConfigError::Invalid {
                    field,
                    reason: "a header name is not one",
                })?;
            Ok((name, header_value(field, value)?))
        })
        .collect()
}

pub(crate) fn header_value(
    field: &'static str,
    value: &str,
) -> Result<HeaderValue, ProviderConfigError> {
    is_header_value(value)
        .then(|| HeaderValue::from_str(value).ok())
        .flatten()
        .ok_or(ProviderConfigError::Invalid {
            field,
            reason: "a header value must be visible ASCII",
        })
}

type ResponseFuture<'c> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TokenHttpError>> + Send + 'c>>;

impl<'c> AsyncHttpClient<'c> for TokenHttp {
    type Error = TokenHttpError;
    type Future = ResponseFuture<'c>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(async move {
            let request = self.quirks.token_request(self.shape.apply(request)?);
            let answer = self
                .http
                .send_http(request, MAX_TOKEN_RESPONSE_BYTES, CallKind::Token)
                .await
                .map_err(|error| match error {
                    SendError::Unbuildable => TokenHttpError::InvalidRequest,
                    SendError::Transport(kind) => TokenHttpError::Transport(kind),
                    SendError::TooLarge(_) => TokenHttpError::TooLarge,
                })?;
            let body = self.quirks.token_answer(answer.body);
            token_answer(answer.status, answer.headers, body)
        })
    }
}

/// The answer handed to oauth2 to parse, or the failure it is: an `error` member whatever
/// the status, else a failure status by its number.
pub fn token_answer(
    status: http::StatusCode,
    headers: http::HeaderMap,
    body: Vec<u8>,
) -> Result<HttpResponse, TokenHttpError> {
    let refusal = |code: String| TokenHttpError::ErrorMember {
        code,
        status: status.as_u16(),
    };
    if let Some(code) = error_member(&body) {
        return Err(refusal(code));
    }
    if says_not_ok(&body) {
        // Slack's Web API answers every failure 200 `{"ok": false}`.
        return Err(refusal("ok: false".into()));
    }
    if !status.is_success() {
        return Err(TokenHttpError::Status(status.as_u16()));
    }
    let mut answer = http::Response::new(body);
    *answer.status_mut() = status;
    *answer.headers_mut() = headers;
    // The body is read as JSON whatever its label: WeChat labels its answers text/plain,
    // which oauth2 would refuse before reading them.
    answer.headers_mut().remove(CONTENT_TYPE);
    Ok(answer)
}

/// Whether a JSON object body says `"ok": false`.
fn says_not_ok(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Ok {
        ok: Option<serde_json::Value>,
    }
    serde_json::from_slice::<Ok>(body)
        .is_ok_and(|answer| answer.ok == Some(serde_json::Value::Bool(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_the_declaration_check_refuses_is_refused_here_too() {
        let pairs = |name: &str, value: &str| {
            let headers = [(name.to_owned(), value.to_owned())].into();
            header_pairs("userinfo.headers", &headers).map(|pairs| pairs.len())
        };
        assert_eq!(pairs("Notion-Version", "2022-06-28\t"), Ok(1));
        // `http` would carry bytes above 0x7F; the declaration check refuses them.
        for (name, value) in [("X-Client", "café"), ("X Client", "1"), ("", "1")] {
            assert!(pairs(name, value).is_err(), "{name:?}: {value:?}");
            assert!(!is_header_name(name) || !is_header_value(value));
        }
        assert!(header_value("user_agent", "app/1.0 (Ünïcode)").is_err());
    }

    #[test]
    fn a_json_error_member_is_found() {
        let body = br#"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}"#;
        assert_eq!(error_member(body).as_deref(), Some("bad_verification_code"));
    }

    #[test]
    fn a_token_response_without_error_is_not_a_failure() {
        let body = br#"{"access_token":"gho_abc","token_type":"bearer","scope":"read:user"}"#;
        assert_eq!(error_member(body), None);
        assert_eq!(error_member(b"not json"), None);
        assert_eq!(error_member(b"[1,2]"), None);
    }

    #[test]
    fn slacks_ok_false_is_a_refusal_and_ok_true_is_not() {
        let refused = token_answer(
            http::StatusCode::OK,
            http::HeaderMap::new(),
            br#"{"ok":false}"#.to_vec(),
        );
        let ok_false = TokenHttpError::ErrorMember {
            code: "ok: false".into(),
            status: 200,
        };
        assert_eq!(refused.unwrap_err(), ok_false);
        let granted = br#"{"ok":true,"access_token":"xoxp-1","token_type":"bearer"}"#;
        assert!(
            token_answer(
                http::StatusCode::OK,
                http::HeaderMap::new(),
                granted.to_vec()
            )
            .is_ok()
        );
    }

    fn shaped(spec: &ProviderSpec, body: &str) -> HttpRequest {
        let mut request = http::Request::new(body.as_bytes().to_vec());
        request.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        TokenShape::of(spec).unwrap().apply(request).unwrap()
    }

    fn spec() -> ProviderSpec {
        social_login_provider_spec::built_in_spec(social_login_domain::ProviderKey::DISCORD)
            .unwrap()
            .clone()
    }

    #[test]
    fn a_standard_provider_s_request_goes_as_built() {
        let body = "grant_type=authorization_code&code=c&client_id=a&client_secret=s";
        let request = shaped(&spec(), body);
        assert_eq!(request.body(), body.as_bytes());
    }

    #[test]
    fn renamed_parameters_a_json_body_and_headers_are_applied() {
        let mut tiktok = spec();
        tiktok.client_id_param = "client_key".into();
        let request = shaped(&tiktok, "code=c&client_id=a+b&client_secret=s");
        assert_eq!(request.body(), b"code=c&client_key=a+b&client_secret=s");

        let mut notion = spec();
        notion.token_request.format = BodyFormat::Json;
        notion
            .token_request
            .headers
            .insert("Notion-Version".into(), "2022-06-28".into());
        let request = shaped(&notion, "grant_type=authorization_code&code=c%2Fd");
        let body: serde_json::Value = serde_json::from_slice(request.body()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"grant_type": "authorization_code", "code": "c/d"})
        );
        assert_eq!(request.headers()[CONTENT_TYPE], "application/json");
        assert_eq!(request.headers()["notion-version"], "2022-06-28");
    }

    #[test]
    fn an_error_member_that_is_not_a_plain_code_is_not_repeated() {
        let body = br#"{"error":"gho_secret token leaked here"}"#;
        let code = error_member(body).unwrap();
        assert!(!code.contains("gho_secret"), "{code}");
        assert_eq!(
            error_member(br#"{"error":{"message":"x"}}"#).as_deref(),
            Some("non-string error member")
        );
    }
}
