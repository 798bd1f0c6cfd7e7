//! The Graph API's ways: a signed URL, and the error envelope `{"error": {...}}` it answers
//! with instead of a node.

use serde_json::{Map, Value};
use social_login_ports::ProviderError;
use social_login_provider_core::failure::safe_error_code;
use url::Url;

/// `url` with our `appsecret_proof` (and `fields`, when given) in place of any it had, its
/// other parameters kept; never an `access_token` parameter.
pub fn signed(url: &Url, proof: &str, fields: Option<&str>) -> Url {
    let mut url = url.clone();
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| !matches!(&**name, "fields" | "appsecret_proof" | "access_token"))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let mut query = url.query_pairs_mut();
    query.clear().extend_pairs(kept);
    if let Some(fields) = fields {
        query.append_pair("fields", fields);
    }
    query.append_pair("appsecret_proof", proof);
    drop(query);
    url
}

/// A Graph error in the answer, named by its type and code only: its message is free text
/// that may quote the token.
pub fn failure(document: &Map<String, Value>) -> Option<ProviderError> {
    let error = document.get("error").filter(|error| !error.is_null())?;
    let kind = error
        .get("type")
        .and_then(Value::as_str)
        .map_or_else(|| "unknown".to_owned(), safe_error_code);
    let code = error
        .get("code")
        .and_then(Value::as_i64)
        .map_or_else(|| "none".to_owned(), |code| code.to_string());
    Some(ProviderError::UserInfo(format!(
        "Facebook userinfo endpoint answered Graph error {kind} (code {code})"
    )))
}
