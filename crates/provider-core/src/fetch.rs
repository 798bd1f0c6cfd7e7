//! Reading a provider's JSON API answer (profile, emails, userinfo) with bounded size.

use crate::failure::{user_info_status, user_info_unanswered, user_info_unreadable};
use crate::http_client::{CallKind, ProviderHttp};
use serde::de::DeserializeOwned;
use social_login_ports::ProviderError;

/// Largest profile or emails answer we read.
pub const MAX_API_RESPONSE_BYTES: usize = 1024 * 1024;

/// Sends `request` (built on `http`, a call of `kind`) and decodes a 2xx JSON answer. Every
/// failure is `ProviderError::UserInfo` naming `what` ("profile endpoint") and the kind of
/// failure.
pub async fn fetch_json<T: DeserializeOwned>(
    what: &str,
    http: &ProviderHttp,
    request: reqwest::RequestBuilder,
    kind: CallKind,
) -> Result<T, ProviderError> {
    fetch_json_unless(what, http, request, kind, &[])
        .await?
        .ok_or_else(|| user_info_status(what, reqwest::StatusCode::NOT_FOUND))
}

/// Like [`fetch_json`], but a status in `absent` means "the provider has nothing for us"
/// (`Ok(None)`), not a failure: e.g. GitHub's emails endpoint without the email scope.
pub async fn fetch_json_unless<T: DeserializeOwned>(
    what: &str,
    http: &ProviderHttp,
    request: reqwest::RequestBuilder,
    kind: CallKind,
    absent: &[reqwest::StatusCode],
) -> Result<Option<T>, ProviderError> {
    let answer = http
        .send(request, MAX_API_RESPONSE_BYTES, kind)
        .await
        .map_err(|error| user_info_unanswered(what, error))?;
    if absent.contains(&answer.status) {
        return Ok(None);
    }
    if !answer.status.is_success() {
        return Err(user_info_status(what, answer.status));
    }
    decode_json(what, &answer.body).map(Some)
}

/// Decodes a provider's JSON answer of `what`; a body that is not the expected JSON is
/// `ProviderError::UserInfo` naming only the position (the body may hold a token).
pub fn decode_json<T: DeserializeOwned>(what: &str, body: &[u8]) -> Result<T, ProviderError> {
    serde_json::from_slice(body).map_err(|e| user_info_unreadable(what, &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_strategies::body_bytes;
    use proptest::prelude::*;
    use serde::Deserialize;
    use serde_json::json;

    const TOKEN: &str = "gho_16C7e42F292c6912E7710c838347Ae178B4a";

    #[derive(Deserialize)]
    #[allow(dead_code)] // Read by serde only: the shape is what is tested.
    struct Profile {
        id: u64,
        token: String,
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Whatever the body, decoding gives the value or a `UserInfo` naming the position,
        /// never quoting the body (serde's own messages quote the offending value).
        #[test]
        fn a_body_that_does_not_decode_is_never_quoted(
            body in body_bytes(json!({"id": 583231, "token": TOKEN})),
        ) {
            match decode_json::<Profile>("GitHub profile endpoint", &body) {
                Ok(_) => {}
                Err(ProviderError::UserInfo(message)) => {
                    let expected = "GitHub profile endpoint answered a body that is not the expected JSON (line ";
                    prop_assert!(message.starts_with(expected), "{}", message);
                    prop_assert!(!message.contains("gho_"), "{}", message);
                }
                Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
            }
        }
    }
}
