//! Graph API errors: `{"error":{"message","type","code","error_subcode","fbtrace_id"}}`.

use crate::random;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// One Graph error, as the simulated endpoints answer it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphError {
    pub message: &'static str,
    pub kind: &'static str,
    pub code: u32,
    pub subcode: Option<u32>,
}

impl GraphError {
    /// An `OAuthException`, the type of every token and access-token failure.
    pub const fn oauth(code: u32, message: &'static str) -> Self {
        Self {
            message,
            kind: "OAuthException",
            code,
            subcode: None,
        }
    }

    pub const fn with_subcode(mut self, subcode: u32) -> Self {
        self.subcode = Some(subcode);
        self
    }

    /// A short label for the request log.
    pub fn outcome(&self) -> String {
        match self.subcode {
            Some(subcode) => format!("{}_{}_{}", self.kind, self.code, subcode),
            None => format!("{}_{}", self.kind, self.code),
        }
    }

    /// HTTP 400 with the Graph envelope.
    pub fn response(&self) -> Response {
        let mut error = json!({
            "message": self.message,
            "type": self.kind,
            "code": self.code,
            "fbtrace_id": random::base62(11),
        });
        if let Some(subcode) = self.subcode {
            error["error_subcode"] = json!(subcode);
        }
        (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))).into_response()
    }
}
