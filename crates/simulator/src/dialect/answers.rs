//! The answers a dialect writes down: error pages, API errors, and OAuth errors rendered in
//! the provider's envelope (RFC 6749, GitHub's 200s, Facebook's Graph, Microsoft's AADSTS).

use crate::flow::Refusal;
use crate::random;
use crate::template::Template;
use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// GitHub's token errors point here.
const GITHUB_ERROR_URI: &str = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

/// A page a provider shows a person (no trusted place to redirect to).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    pub status: u16,
    pub body: String,
    /// What the log records.
    pub outcome: String,
}

impl Page {
    pub fn refusal(&self) -> Refusal {
        Refusal::new(&self.outcome, (status(self.status), self.body.clone()))
    }
}

/// A refusal of a provider's REST API: a JSON body (or text), its status, maybe a challenge.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiError {
    pub status: u16,
    pub outcome: String,
    /// JSON; a string is sent as plain text.
    pub body: Value,
    pub www_authenticate: Option<String>,
}

impl ApiError {
    pub fn refusal(&self) -> Refusal {
        let mut response = match &self.body {
            Value::String(text) => text.clone().into_response(),
            body => Json(body.clone()).into_response(),
        };
        *response.status_mut() = status(self.status);
        if let Some(challenge) = self
            .www_authenticate
            .as_deref()
            .and_then(|c| c.parse().ok())
        {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge);
        }
        Refusal::new(&self.outcome, response)
    }
}

/// One OAuth error; which fields matter depends on the envelope.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpec {
    #[serde(default = "bad_request")]
    pub status: u16,
    /// The OAuth `error` (Graph: the exception type).
    pub error: String,
    /// `error_description` (Graph: `message`; AADSTS: the message after the number).
    pub description: Option<String>,
    /// The Graph or AADSTS error number.
    pub code: Option<u32>,
    pub subcode: Option<u32>,
    /// Plain text (the description) instead of the envelope (GitHub's unreadable body).
    #[serde(default)]
    pub plain: bool,
}

impl ErrorSpec {
    /// An RFC 6749 error with a description, answered by a provider's hooks.
    pub fn described(error: &str, description: &str) -> Self {
        Self {
            status: 400,
            error: error.to_owned(),
            description: Some(description.to_owned()),
            code: None,
            subcode: None,
            plain: false,
        }
    }

    /// An error a provider's hooks answer (Microsoft's tenant refusals).
    pub fn numbered(status: u16, error: &str, code: u32, description: &str) -> Self {
        Self {
            status,
            code: Some(code),
            ..Self::described(error, description)
        }
    }
}

/// How a provider's token endpoint wraps its answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Envelope {
    /// `{"error", "error_description"?}` with the error's status.
    Rfc6749,
    /// HTTP 200 always, `error_uri` added; JSON when the client accepts it, else a form.
    #[serde(rename = "github_200")]
    Github200,
    /// `{"error": {"message", "type", "code", "error_subcode"?, "fbtrace_id"}}`, HTTP 400.
    Graph,
    /// Microsoft's `error`, AADSTS description, codes, ids and timestamp.
    Aadsts,
    /// A body of the provider's own shape (`{error}`, `{description}`, `{code}`,
    /// `{status}`), with this status or the error's (Slack's 200 `ok: false`, WeChat's
    /// `errcode`, Twitch's `message`).
    Shaped { status: Option<u16>, body: Template },
}

impl Envelope {
    /// The refusal `error` makes; `json` is whether the client accepts JSON (GitHub).
    pub fn refusal(&self, error: &ErrorSpec, json: bool) -> Refusal {
        let description = error.description.as_deref();
        if error.plain {
            let text = description.unwrap_or_default().to_owned();
            return Refusal::new(&error.error, (status(error.status), text));
        }
        match self {
            Self::Rfc6749 => {
                let mut body = json!({ "error": error.error });
                if let Some(description) = description {
                    body["error_description"] = json!(description);
                }
                Refusal::new(&error.error, (status(error.status), Json(body)))
            }
            Self::Github200 => {
                let mut pairs = Map::new();
                pairs.insert("error".into(), json!(error.error));
                pairs.insert("error_description".into(), json!(description));
                pairs.insert("error_uri".into(), json!(GITHUB_ERROR_URI));
                Refusal::new(&error.error, self.answer(pairs, json))
            }
            Self::Graph => {
                let code = error.code.unwrap_or_default();
                graph_refusal(
                    &error.error,
                    code,
                    error.subcode,
                    description.unwrap_or_default(),
                )
            }
            Self::Aadsts => super::aadsts::refusal(error),
            Self::Shaped {
                status: shaped,
                body,
            } => {
                let body = body.render_by(&|name| match name {
                    "error" => Some(json!(error.error)),
                    "description" => Some(json!(description)),
                    "code" => Some(json!(error.code)),
                    "status" => Some(json!(error.status)),
                    _ => None,
                });
                let code = status(shaped.unwrap_or(error.status));
                Refusal::new(&error.error, (code, Json(body)))
            }
        }
    }

    /// A successful answer: JSON, or for GitHub a form unless the client accepts JSON.
    pub fn answer(&self, body: Map<String, Value>, json: bool) -> Response {
        if *self != Self::Github200 || json {
            return Json(body).into_response();
        }
        let pairs: Vec<(String, String)> = body
            .into_iter()
            .map(|(key, value)| match value {
                Value::String(text) => (key, text),
                other => (key, other.to_string()),
            })
            .collect();
        let form = serde_urlencoded::to_string(pairs).unwrap_or_default();
        (
            [(header::CONTENT_TYPE, "application/x-www-form-urlencoded")],
            form,
        )
            .into_response()
    }
}

/// A Graph error: HTTP 400, the log says `<type>_<code>[_<subcode>]`.
pub fn graph_refusal(kind: &str, code: u32, subcode: Option<u32>, message: &str) -> Refusal {
    let mut error =
        json!({"message": message, "type": kind, "code": code, "fbtrace_id": random::base62(11)});
    let mut outcome = format!("{kind}_{code}");
    if let Some(subcode) = subcode {
        error["error_subcode"] = json!(subcode);
        outcome = format!("{outcome}_{subcode}");
    }
    Refusal::new(
        outcome,
        (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))),
    )
}

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST)
}

fn bad_request() -> u16 {
    400
}
